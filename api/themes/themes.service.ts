import type { z } from 'zod';
import { databaseRefusal } from '../../db/driver-errors.ts';
import { defaultThemeName, findThemeTemplate } from '../../src/shared/theme-templates.ts';
import type { themeInput, themeUpdateInput } from '../../src/shared/schemas/themes.ts';
import type { Deps } from '../deps.ts';
import { conflict, notFound } from '../http/errors.ts';
import { themesRepository } from './themes.repository.ts';

export function themesService({ database, events }: Pick<Deps, 'database' | 'events'>) {
  const repo = themesRepository(database);
  const changed = () => events.changed({ topic: 'themes' });
  return {
    listAll: repo.listAll,

    /** The theme the public site wears: the active one, else the default, else the built-in default template. */
    async active() {
      const row = await repo.findActive();
      if (row) return { id: row.id, name: row.name, displayName: row.displayName, description: row.description, cssVariables: row.cssVariables };
      const template = findThemeTemplate(defaultThemeName)!;
      return {
        id: null,
        name: template.name,
        displayName: template.displayName,
        description: template.description,
        cssVariables: JSON.stringify(template.cssVariables),
      };
    },

    async create(input: z.output<typeof themeInput>) {
      let row;
      try {
        row = await repo.create({ ...input, isActive: false, isDefault: false });
      } catch (err) {
        if (databaseRefusal(err)?.kind === 'unique')
          throw conflict('A theme with this name is already installed.', { name: 'A theme with this name is already installed' });
        throw err;
      }
      if (input.isDefault) await repo.makeDefault(row.id);
      if (input.isActive) await repo.activate(row.id);
      if (input.isActive || input.isDefault) {
        changed();
        return (await repo.findById(row.id)) ?? row;
      }
      return row;
    },

    /** An installed theme edited (issue 19); the site changes with it at once when it is the one it wears. */
    async update(id: string, input: z.output<typeof themeUpdateInput>) {
      const row = await repo.update(id, input);
      if (!row) throw notFound('Theme not found');
      if ((await repo.findActive())?.id === row.id) changed();
      return row;
    },

    async activate(id: string) {
      if (!(await repo.activate(id))) throw notFound('Theme not found');
      changed();
      return (await repo.findById(id))!;
    },

    /** SPEC §4: a default theme cannot be deleted; neither can the one the site is wearing. */
    async remove(id: string) {
      if (await repo.removeDeletable(id)) return;
      // Not deleted: say why, from what is stored now.
      const theme = await repo.findById(id);
      if (!theme) throw notFound('Theme not found');
      if (theme.isDefault) throw conflict('The default theme cannot be deleted.');
      if (theme.isActive) throw conflict('The active theme cannot be deleted; activate another theme first.');
      throw conflict('The theme changed while it was being deleted; reload and try again.');
    },
  };
}
