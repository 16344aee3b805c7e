/**
 * The rich-text editor's rules for a post's content (issue 19): which TipTap extensions it uses, the
 * addresses a link may have, and the markup it cannot keep. What it writes is what the server's one
 * policy keeps (api/http/sanitize-html.ts): headings h2-h4, paragraphs, lists, links, quotes, code,
 * rules, line breaks and https images, with no classes, styles or targets; a unit test holds the
 * two together. Loaded only by the post's editor page (TipTap is not in any other bundle).
 */
import type { Editor, Extensions } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import StarterKit from '@tiptap/starter-kit';

/** The schemes a link may use: the sanitiser's, so what the editor accepts is what the site keeps. */
const LINK_SCHEME = /^(https?|mailto|tel):/i;

/** The extensions, for the page's editor and for the test that runs the same editor. */
export function articleExtensions(): Extensions {
  return [
    StarterKit.configure({
      // The page's title is the article's h1; the sanitiser turns any other level into h2-h4.
      heading: { levels: [2, 3, 4] },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        // The firm's own links open where they are; the sanitiser allows no class.
        HTMLAttributes: { target: null, rel: null, class: null },
        // Pasted or typed HTML too: a javascript: or data: link never enters the document.
        isAllowedUri: (url) => linkAddressAllowed(url),
      },
      codeBlock: { HTMLAttributes: { class: null } },
    }),
    // Images already in articles (https only, as the sanitiser keeps them) stay when a post is edited.
    Image.configure({ allowBase64: false }),
  ];
}

/** A link the site keeps: http(s), mailto: and tel:, or an address on this site (/contact, #section). */
export function linkAddressAllowed(href: string): boolean {
  const value = href.trim();
  if (value === '' || /[\s<>"]/.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  if (value.startsWith('#')) return true;
  return LINK_SCHEME.test(value);
}

export type LinkAddress = { href: string } | { error: string };

/**
 * What the link prompt makes of what was typed: an address the site keeps, with https:// added to a
 * bare domain ('example.com/page'), or the reason it is refused (javascript:, data:, spaces...).
 */
export function linkAddress(input: string): LinkAddress {
  const value = input.trim();
  if (value === '') return { error: 'Enter the address the link goes to' };
  const bareDomain = /^[a-z0-9-]+(\.[a-z0-9-]+)+(?::\d+)?([/?#]\S*)?$/i.test(value);
  const href = bareDomain ? `https://${value}` : value;
  if (linkAddressAllowed(href)) return { href };
  return { error: 'Use an address starting with https://, http://, mailto: or tel:, or a path on this site such as /contact' };
}

/** The toolbar's actions, in its order (the page draws a button for each; the test runs them). */
export const articleCommands = [
  {
    name: 'Heading 2',
    keys: 'Control+Alt+2',
    run: (e: Editor) => e.chain().focus().toggleHeading({ level: 2 }).run(),
    active: (e: Editor) => e.isActive('heading', { level: 2 }),
  },
  {
    name: 'Heading 3',
    keys: 'Control+Alt+3',
    run: (e: Editor) => e.chain().focus().toggleHeading({ level: 3 }).run(),
    active: (e: Editor) => e.isActive('heading', { level: 3 }),
  },
  { name: 'Bold', keys: 'Control+B', run: (e: Editor) => e.chain().focus().toggleBold().run(), active: (e: Editor) => e.isActive('bold') },
  { name: 'Italic', keys: 'Control+I', run: (e: Editor) => e.chain().focus().toggleItalic().run(), active: (e: Editor) => e.isActive('italic') },
  {
    name: 'Bulleted list',
    keys: 'Control+Shift+8',
    run: (e: Editor) => e.chain().focus().toggleBulletList().run(),
    active: (e: Editor) => e.isActive('bulletList'),
  },
  {
    name: 'Numbered list',
    keys: 'Control+Shift+7',
    run: (e: Editor) => e.chain().focus().toggleOrderedList().run(),
    active: (e: Editor) => e.isActive('orderedList'),
  },
  { name: 'Quote', keys: 'Control+Shift+B', run: (e: Editor) => e.chain().focus().toggleBlockquote().run(), active: (e: Editor) => e.isActive('blockquote') },
] as const;

/**
 * The link prompt's result applied: the selected words become the link (the whole link when the
 * cursor is inside one); with nothing selected, the address itself is inserted as the link's text.
 */
export function applyLink(editor: Editor, href: string): boolean {
  if (!linkAddressAllowed(href)) return false;
  const { empty } = editor.state.selection;
  if (empty && !editor.isActive('link')) {
    return editor
      .chain()
      .focus()
      .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
      .unsetMark('link')
      .run();
  }
  return editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
}

export function removeLink(editor: Editor): boolean {
  return editor.chain().focus().extendMarkRange('link').unsetLink().run();
}

/**
 * The editor's content as the form keeps it: '' for an empty document (so 'Content is required'
 * applies), and without the empty paragraph the editor keeps after a closing list or quote (a place
 * to click to write on), which is not part of the article.
 */
export const articleHtml = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML().replace(/(<p><\/p>)+$/, ''));

/** Tags the editor writes under another name: <b> becomes <strong>, <i> <em>. */
const SAME_AS: Readonly<Record<string, string>> = { b: 'strong', i: 'em' };

const tagsOf = (html: string) => new Set(Array.from(html.matchAll(/<([a-z][a-z0-9]*)\b/gi), (m) => SAME_AS[m[1]!.toLowerCase()] ?? m[1]!.toLowerCase()));

/**
 * The kinds of markup in `html` that the editor's version of it (`edited`) no longer has (a table, a
 * figure): a post holding them is edited as HTML, so opening it in the editor does not drop them.
 */
export function markupLostInEditor(html: string, edited: string): string[] {
  const kept = tagsOf(edited);
  return [...tagsOf(html)].filter((tag) => !kept.has(tag)).sort();
}
