/**
 * What /theme.css may hold, whatever a stored theme says (decision 007, extended by 031): a `:root`
 * block with the colour scheme, the variants on offer, and known variables with plain values, then a
 * `:root.dark` and a `:root.warm` block of the same kind; nothing else.
 */
import { themeColorKeys } from '../../src/shared/theme-variables.ts';

const declaration = String.raw`--(${[...themeColorKeys, 'radius'].join('|')}):[0-9.\s%a-z-]+`;
const scheme = 'color-scheme:(light|dark)';
const block = (selector: string, extra = '') => String.raw`${selector}\{(${scheme};)?${extra}(${declaration})?(;${declaration})*\}\n`;

export const confinedThemeCss = new RegExp(
  `^${block(':root', '--site-theme-variants:light( dark)?( warm)?;?')}(${block(String.raw`:root\.dark`)})?(${block(String.raw`:root\.warm`)})?$`,
);
