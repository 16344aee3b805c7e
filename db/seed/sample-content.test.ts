import { describe, expect, it } from 'vitest';
import { probateFeeSchedule } from '../../src/config/probate.ts';
import { estimateProbate, formatUsd } from '../../src/shared/probate.ts';
import { samplePosts } from './sample-content.ts';

describe('the sample probate article', () => {
  it('says which schedule the calculator uses and quotes its fee for a $1,000,000 estate, so the two agree', () => {
    const article = samplePosts.find((post) => post.content.includes('href="/probate-calculator"'))!;
    expect(article.content).toContain(probateFeeSchedule.name);
    expect(article.content).toContain(`for a $1,000,000 estate it gives ${formatUsd(estimateProbate(1_000_000, 0, probateFeeSchedule).attorneyFees)}`);
  });
});
