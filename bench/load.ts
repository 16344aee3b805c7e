/**
 * Requests per second and latency under N concurrent connections (autocannon, in this process),
 * each figure beside a bare node:http server answering the same bytes in the same run: the ratio is
 * what counts, since absolute figures depend on the machine.
 */
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  /** Responses received over the run. */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

/** `paths`: each request the next of these on `url`'s origin, in turn (a mix of pages); unset: `url` itself. */
export async function load(
  name: string,
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string>; paths?: string[] },
): Promise<LoadResult> {
  const paths = options.paths;
  let next = 0;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
    ...(paths?.length
      ? { requests: [{ method: 'GET' as const, setupRequest: (req: autocannon.Request) => ({ ...req, path: paths[next++ % paths.length]! }) }] }
      : {}),
  });
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}
