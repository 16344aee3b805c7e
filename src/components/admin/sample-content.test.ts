import { describe, expect, it } from 'vitest';
import { samplesShownText, seededSamplesText } from './sample-content.ts';

const counts = { testimonials: 3, articles: 3, reviews: 4 };

describe('what the admin says of sample content (issue 19)', () => {
  it('says the site shows built-in samples only while they are on and nothing of the firm is shown', () => {
    expect(samplesShownText('testimonials', counts, 0)).toBe(
      'The site is showing 3 built-in sample testimonials because none here is published yet. They are for development and are off in production (SAMPLE_CONTENT).',
    );
    expect(samplesShownText('reviews', counts, 0)).toMatch(/^The home page is showing 4 built-in sample reviews because none here is visible yet\./);
    expect(samplesShownText('articles', { ...counts, articles: 1 }, 0)).toMatch(/^The site is showing 1 built-in sample article because no post/);
    expect(samplesShownText('testimonials', counts, 1)).toBeNull();
    expect(samplesShownText('testimonials', null, 0)).toBeNull();
  });

  it('names the rows the seed wrote, if any', () => {
    expect(seededSamplesText('testimonials', 0)).toBeNull();
    expect(seededSamplesText('testimonials', 4)).toMatch(/^4 testimonials marked Sample were written by the setup for development/);
    expect(seededSamplesText('articles', 1)).toMatch(/^1 post marked Sample was written/);
  });
});
