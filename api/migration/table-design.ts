/**
 * The single-table design of docs/decisions/011: one DynamoDB table, every kind in it, each item
 * keyed by its relational row id (PK = "<ENTITY>#<id>", SK = "<ENTITY>"), plus three overloaded
 * global secondary indexes for the product's lookups:
 *   GSI1  a kind's collection in its natural order (posts by creation, appointments by date, themes by name)
 *   GSI2  unique natural keys (post by slug, theme by name, component by key, user by username,
 *         appointment by calendar event, external article by source and url)
 *   GSI3  sparse or filtered listings (published posts by date, appointments by status and date,
 *         the active theme or integration, external articles by source)
 * Index attributes are left out of items they do not apply to, so those items stay out of the index.
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const DEFAULT_TABLE_NAME = 'firm-site';

export const indexNames = ['GSI1', 'GSI2', 'GSI3'] as const;
export type IndexName = (typeof indexNames)[number];

/** Every key attribute an item may carry (all strings). */
export const keyAttributeNames = ['PK', 'SK', ...indexNames.flatMap((name) => [`${name}PK`, `${name}SK`])] as const;
export type KeyAttributeName = (typeof keyAttributeNames)[number];

/** The CreateTable input: on-demand capacity (a migration is a burst, then the site's small steady load). */
export function tableDefinition(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributeNames.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' },
      { AttributeName: 'SK', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexNames.map((name) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: `${name}PK`, KeyType: 'HASH' as const },
        { AttributeName: `${name}SK`, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}

/** The same definition as an AWS CLI command (plus the wait for ACTIVE) an operator can paste. */
export function createTableCliCommand(definition: CreateTableCommandInput, target: { region: string | null; endpoint?: string }): string {
  const shorthand = (entries: Record<string, string>[]) =>
    entries
      .map((e) =>
        Object.entries(e)
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      )
      .join(' ');
  const where = [target.region ? ` --region ${target.region}` : '', target.endpoint ? ` --endpoint-url ${target.endpoint}` : ''].join('');
  return [
    `aws dynamodb create-table${where} \\`,
    `  --table-name ${definition.TableName} \\`,
    `  --billing-mode ${definition.BillingMode} \\`,
    `  --attribute-definitions ${shorthand(definition.AttributeDefinitions as unknown as Record<string, string>[])} \\`,
    `  --key-schema ${shorthand(definition.KeySchema as unknown as Record<string, string>[])} \\`,
    `  --global-secondary-indexes '${JSON.stringify(definition.GlobalSecondaryIndexes)}'`,
    `aws dynamodb wait table-exists${where} --table-name ${definition.TableName}`,
  ].join('\n');
}
