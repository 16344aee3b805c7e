import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { reuseStatements } from './sqlite-statements.ts';

function database() {
  const client = new BetterSqlite3(':memory:');
  client.exec("create table t (id integer primary key, name text); insert into t (name) values ('a'), ('b')");
  let compiled = 0;
  const compile = client.prepare.bind(client);
  Object.defineProperty(client, 'prepare', {
    value: (source: string) => {
      compiled++;
      return compile(source);
    },
    configurable: true,
  });
  reuseStatements(client);
  return { client, compiled: () => compiled };
}

describe('reuseStatements', () => {
  it('compiles one SQL text once, and runs it again with new parameters', () => {
    const { client, compiled } = database();
    const select = 'select name from t where id = ?';
    expect(client.prepare(select).get(1)).toEqual({ name: 'a' });
    expect(client.prepare(select).get(2)).toEqual({ name: 'b' });
    expect(compiled()).toBe(1);
    client.prepare('insert into t (name) values (?)').run('c');
    client.prepare('insert into t (name) values (?)').run('d');
    expect(compiled()).toBe(2);
    expect(client.prepare('select count(*) as n from t').get()).toEqual({ n: 4 });
  });

  it("keeps each query's choice of rows as arrays to itself, however their runs interleave", () => {
    const { client } = database();
    const sql = 'select id, name from t order by id';
    const asArrays = client.prepare(sql).raw();
    const asObjects = client.prepare(sql);
    expect(asArrays.all()).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(asObjects.all()).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    expect(asArrays.get()).toEqual([1, 'a']);
    expect(asObjects.get()).toEqual({ id: 1, name: 'a' });
  });

  it('answers the statements a schema change alters with the new columns', () => {
    const { client } = database();
    expect(client.prepare('select * from t where id = 1').get()).toEqual({ id: 1, name: 'a' });
    client.exec("alter table t add column note text default 'x'");
    expect(client.prepare('select * from t where id = 1').get()).toEqual({ id: 1, name: 'a', note: 'x' });
  });
});
