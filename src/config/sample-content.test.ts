import { describe, expect, it } from 'vitest';
import { sampleContentShown } from './sample-content.ts';

describe('sample content (issue 19: nothing invented presented as real)', () => {
  it('is shown while developing and testing, never in production unless asked for', () => {
    expect(sampleContentShown({})).toBe(true);
    expect(sampleContentShown({ NODE_ENV: 'development' })).toBe(true);
    expect(sampleContentShown({ NODE_ENV: 'test' })).toBe(true);
    expect(sampleContentShown({ NODE_ENV: 'production' })).toBe(false);
    expect(sampleContentShown({ NODE_ENV: 'production', SAMPLE_CONTENT: 'true' })).toBe(true);
    expect(sampleContentShown({ NODE_ENV: 'development', SAMPLE_CONTENT: 'false' })).toBe(false);
  });
});
