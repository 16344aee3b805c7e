/**
 * An article's link-preview card (issue 18: "og:image on every page, a branded card generated per
 * article"): 1200 x 630 PNG with the firm's mark and name, the article's category, title and date, in
 * the default theme's colours, drawn without a browser (satori lays the text out to SVG with the
 * Inter font shipped in node_modules, resvg paints it). Served at /og/blog/<slug>.png, kept and
 * re-rendered with the article's page (api/site/published-pages.ts), so it changes when the title does.
 *
 * resvg runs as WebAssembly and each image is freed when painted: the native build (@resvg/resvg-js)
 * kept about 3 MB of every image it painted (740 MB after 200 cards, garbage collection or not); this
 * one stays flat (115 MB to 129 MB over 100 cards in a bare process). Loaded on the first card only.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import satori from 'satori';
import { firm } from '../config/firm.ts';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

const require = createRequire(import.meta.url);
const font = (weight: 400 | 700 | 800) => readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`));
let fonts: { name: string; data: Buffer; weight: 400 | 700 | 800; style: 'normal' }[] | undefined;
let wasm: Promise<void> | undefined;
const loadResvg = () => (wasm ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm'))));
const loadFonts = () => (fonts ??= ([400, 700, 800] as const).map((weight) => ({ name: 'Inter', data: font(weight), weight, style: 'normal' as const })));

/** A satori node: React's element shape, written without JSX. */
type Node = { type: string; props: { style?: Record<string, string | number>; children?: (Node | string)[] | Node | string; [k: string]: unknown } };
const el = (type: string, style: Record<string, string | number>, children?: Node['props']['children'], props: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, children, ...props },
});

/** Titles of any length fit the card: the type gets smaller as the title gets longer. */
const titleSize = (title: string) => (title.length <= 40 ? 68 : title.length <= 70 ? 58 : title.length <= 110 ? 48 : 40);

export interface ArticleCard {
  title: string;
  /** 'Estate Planning' */
  category: string;
  /** 'March 4, 2026', or null for no date. */
  date: string | null;
}

export async function articleCardPng(card: ArticleCard): Promise<Buffer> {
  const title = card.title.length > 160 ? `${card.title.slice(0, 157).trimEnd()}…` : card.title;
  const svg = await satori(
    el(
      'div',
      {
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
        boxSizing: 'border-box',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: '64px 80px',
        backgroundImage: 'linear-gradient(135deg, hsl(217, 71%, 30%), hsl(217, 71%, 18%))',
        color: '#fff',
        fontFamily: 'Inter',
      },
      [
        el('div', { display: 'flex', alignItems: 'center', gap: 24, fontSize: 30, fontWeight: 700 }, [
          el(
            'div',
            { width: 72, height: 72, borderRadius: 14, background: '#fff', display: 'flex', alignItems: 'center', justifyContent: 'center' },
            el('svg', {}, el('path', {}, undefined, { d: 'M9 25V7h9a6 6 0 0 1 0 12h-5v6z', fill: 'hsl(217, 71%, 30%)' }), {
              width: 44,
              height: 44,
              viewBox: '0 0 32 32',
            }),
          ),
          firm.name,
        ]),
        el('div', { display: 'flex', flexDirection: 'column', gap: 20 }, [
          el(
            'div',
            { display: 'flex', fontSize: 28, fontWeight: 700, color: 'hsl(214, 60%, 88%)', textTransform: 'uppercase', letterSpacing: 2 },
            card.category,
          ),
          el('div', { display: 'flex', fontSize: titleSize(title), fontWeight: 800, lineHeight: 1.12 }, title),
        ]),
        el(
          'div',
          {
            display: 'flex',
            justifyContent: 'space-between',
            fontSize: 26,
            color: 'hsl(214, 60%, 88%)',
            borderTopWidth: 2,
            borderTopStyle: 'solid',
            borderTopColor: 'hsl(214, 50%, 45%)',
            paddingTop: 28,
          },
          [el('span', {}, card.date ?? `${firm.address.city}, ${firm.address.region}`), el('span', {}, firm.phone)],
        ),
      ],
    ) as unknown as Parameters<typeof satori>[0],
    { width: CARD_WIDTH, height: CARD_HEIGHT, fonts: loadFonts() },
  );
  await loadResvg();
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: CARD_WIDTH } });
  const image = resvg.render();
  try {
    return Buffer.from(image.asPng());
  } finally {
    image.free();
    resvg.free();
  }
}
