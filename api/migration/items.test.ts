import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { backoffMs } from './dynamodb.ts';
import { canonicalDecimal, differingAttributes, kindMappings, kindOfKey, mappingOf, toItem } from './items.ts';
import { createTableCliCommand, tableDefinition } from './table-design.ts';

describe('toItem', () => {
  it('keys the item by the row id, keeps every field, writes times as ISO UTC and money from its text', () => {
    const row = {
      id: 'r1',
      estateValue: '1234567890.12',
      realEstateValue: '0.10',
      attorneyFees: '0.00',
      executorFees: '1.00',
      courtCosts: '800.00',
      totalProbate: '2.00',
      trustCost: '3000.00',
      savings: '0.00',
      userEmail: null,
      createdAt: new Date('2025-03-01T17:30:00.123Z'),
    };
    const item = toItem(mappingOf('probate_calculations'), row);
    expect(item).toMatchObject({
      PK: 'PROBATE#r1',
      SK: 'PROBATE',
      kind: 'probate_calculations',
      GSI1PK: 'PROBATE_CALCULATIONS',
      GSI1SK: '2025-03-01T17:30:00.123Z#r1',
    });
    expect(item.createdAt).toBe('2025-03-01T17:30:00.123Z');
    expect(item.userEmail).toBeNull();
    expect(item.estateValue).toBeInstanceOf(NumberValue);
    expect((item.estateValue as NumberValue).value).toBe('1234567890.12');
    expect((item.realEstateValue as NumberValue).value).toBe('0.10');
  });

  it('never carries a user password', () => {
    const item = toItem(mappingOf('users'), { id: 'u1', username: 'ana', password: 'secret-pass', role: 'admin', createdAt: new Date(0) });
    expect(item).not.toHaveProperty('password');
    expect(item).toMatchObject({ PK: 'USER#u1', GSI2PK: 'USERNAME#ana', username: 'ana', role: 'admin' });
  });

  it('leaves items out of the sparse indexes they do not belong to', () => {
    const draft = toItem(mappingOf('blog_posts'), { id: 'p1', slug: 'a', isPublished: false, publishedAt: null, createdAt: new Date(0) });
    expect(draft).not.toHaveProperty('GSI3PK');
    expect(draft).toMatchObject({ GSI2PK: 'POST_SLUG#a' });
    const appointment = toItem(mappingOf('appointments'), { id: 'a1', status: 'confirmed', scheduledDate: new Date(0), externalEventId: null });
    expect(appointment).not.toHaveProperty('GSI2PK');
    expect(appointment.GSI3PK).toBe('APPOINTMENTS#confirmed');
  });

  it('covers the twelve kinds of SPEC §2 with distinct key prefixes', () => {
    expect(kindMappings).toHaveLength(12);
    expect(new Set(kindMappings.map((m) => m.entity)).size).toBe(12);
    for (const m of kindMappings) expect(kindOfKey(`${m.entity}#x-1`, m.entity)).toEqual({ kind: m.kind, id: 'x-1' });
    expect(kindOfKey('OTHER#1', 'OTHER')).toBeNull();
    expect(kindOfKey('POST#1', 'THEME')).toBeNull();
  });
});

describe('comparison', () => {
  it('reads decimals as DynamoDB writes them back', () => {
    expect(canonicalDecimal('0.10')).toBe('0.1');
    expect(canonicalDecimal('0.00')).toBe('0');
    expect(canonicalDecimal('-0.00')).toBe('0');
    expect(canonicalDecimal('001234567890.120')).toBe('1234567890.12');
    expect(canonicalDecimal('2500')).toBe('2500');
    expect(canonicalDecimal('-12.50')).toBe('-12.5');
  });

  it('finds differing, missing and unexpected attributes, and nothing when equal', () => {
    const expected = { a: 'x', n: NumberValue.from('0.10'), r: 5, z: null };
    expect(differingAttributes(expected, { a: 'x', n: NumberValue.from('0.1'), r: NumberValue.from('5'), z: null })).toEqual([]);
    expect(differingAttributes(expected, { a: 'y', n: NumberValue.from('0.11'), r: NumberValue.from('5'), extra: 1 })).toEqual(['a', 'extra', 'n', 'z']);
    // A number turned into text is a difference, even with the same digits.
    expect(differingAttributes({ n: NumberValue.from('1') }, { n: '1' })).toEqual(['n']);
  });
});

describe('the table design', () => {
  it('is one table with PK/SK and three overloaded indexes, on demand', () => {
    const def = tableDefinition('firm-site');
    expect(def.KeySchema).toEqual([
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ]);
    expect(def.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(['GSI1', 'GSI2', 'GSI3']);
    expect(def.AttributeDefinitions).toHaveLength(8);
    expect(def.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('prints the same definition as an AWS CLI command', () => {
    const command = createTableCliCommand(tableDefinition('firm-site'), { region: 'us-west-2' });
    expect(command.split('\n')[0]).toBe('aws dynamodb create-table --region us-west-2 \\');
    expect(command).toContain('--attribute-definitions AttributeName=PK,AttributeType=S AttributeName=SK,AttributeType=S AttributeName=GSI1PK,AttributeType=S');
    const json = /--global-secondary-indexes '(.*)'/.exec(command)![1]!;
    expect(JSON.parse(json)).toEqual(tableDefinition('firm-site').GlobalSecondaryIndexes);
    expect(command.split('\n').at(-1)).toBe('aws dynamodb wait table-exists --region us-west-2 --table-name firm-site');
  });
});

describe('backoff', () => {
  it('grows exponentially up to the cap, with full jitter', () => {
    const tuning = { baseDelayMs: 50, maxDelayMs: 5_000 };
    for (let attempt = 1; attempt < 12; attempt++) {
      for (let i = 0; i < 50; i++) {
        const wait = backoffMs(attempt, tuning);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(Math.min(5_000, 50 * 2 ** attempt));
      }
    }
  });
});
