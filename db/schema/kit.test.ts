import { getTableConfig as pgConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { isBetween, isOneOf, kinds } from './kit.ts';
import * as model from './model.ts';
import * as pg from './pg.ts';
import * as sqlite from './sqlite.ts';

const render = (condition: Parameters<PgDialect['sqlToQuery']>[0]) => new PgDialect().sqlToQuery(condition).sql;

describe('CHECK helpers', () => {
  it('renders a list of values as a quoted SQL list, never as parameters', () => {
    expect(render(isOneOf(pg.appointments.status, ['scheduled', "it's", 'a\\b']))).toBe(`"appointments"."status" in ('scheduled', 'it''s', 'a\\b')`);
  });

  it('refuses an empty list and bounds that are not whole numbers', () => {
    expect(() => isOneOf(pg.appointments.status, [])).toThrow(/empty/);
    expect(() => isBetween(pg.testimonials.rating, { min: 1, max: 5.5 })).toThrow(/integers/);
    expect(render(isBetween(pg.testimonials.rating, { min: 1, max: 5 }))).toBe('"testimonials"."rating" between 1 and 5');
  });
});

describe('the dialect modules', () => {
  const tableKeys = Object.keys(model).filter((key) => key in pg || key in sqlite);

  it('export every table of the model by name, built with their own Drizzle tables', () => {
    const modelTables = Object.keys(kinds(model));
    expect(tableKeys).toHaveLength(modelTables.length);
    expect(Object.keys(pg).sort()).toEqual([...tableKeys].sort());
    expect(Object.keys(sqlite).sort()).toEqual([...tableKeys].sort());
    for (const key of tableKeys) {
      const [p, s] = [(pg as Record<string, unknown>)[key], (sqlite as Record<string, unknown>)[key]];
      expect(p, key).toBeInstanceOf(PgTable);
      expect(s, key).toBeInstanceOf(SQLiteTable);
      expect(pgConfig(p as PgTable).name).toBe(sqliteConfig(s as SQLiteTable).name);
    }
  });

  it('point each foreign key at a table of the same dialect', () => {
    const reference = pgConfig(pg.blogPostRedirects).foreignKeys[0]!.reference();
    expect(reference.foreignTable).toBe(pg.blogPosts);
    expect(sqliteConfig(sqlite.blogPostRedirects).foreignKeys[0]!.reference().foreignTable).toBe(sqlite.blogPosts);
  });
});
