/**
 * The API's route types, for the typed client (api-client.ts). A type-only import: nothing of the
 * server reaches the browser bundle. This file is the one place src/ may name api/ (biome.json).
 */
export type { ApiRoutes } from '../../api/app.ts';
