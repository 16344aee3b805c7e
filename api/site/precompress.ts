/**
 * A build step (astro.config.mjs, after `astro build`): beside every prerendered file worth
 * compressing, its best forms, `file.br` (brotli 11) and `file.gz` (gzip 9). The server reads them
 * with the file at start (static-files.ts) instead of compressing everything again in each container
 * at each start, which was most of its start-up CPU.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { bestForms, worthCompressing } from './compressed.ts';
import { contentType, PRECOMPRESSED, walk } from './static-files.ts';

/** Compressions at once (each holds one of libuv's threads). */
const PARALLEL = 4;

export async function precompress(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const queue = walk(dir).filter((file) => !PRECOMPRESSED.test(file));
  const done = { files: 0, bytes: 0, brotliBytes: 0 };
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        const body = await readFile(file);
        if (!worthCompressing(contentType(file), body.length)) continue;
        const { gzip, brotli } = await bestForms(body);
        await Promise.all([writeFile(`${file}.br`, brotli), writeFile(`${file}.gz`, gzip)]);
        done.files++;
        done.bytes += body.length;
        done.brotliBytes += brotli.length;
      }
    }),
  );
  return done;
}
