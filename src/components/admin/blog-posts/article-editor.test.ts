// @vitest-environment happy-dom
/**
 * The editor's output against the server's policy (api/http/sanitize-html.ts): whatever the toolbar
 * makes survives sanitising unchanged, so what the admin sees in the editor is what the site shows.
 * The real TipTap editor, headless, in a DOM of happy-dom's.
 */
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from '../../../../api/http/sanitize-html.ts';
import {
  applyLink,
  articleCommands,
  articleExtensions,
  articleHtml,
  linkAddress,
  linkAddressAllowed,
  markupLostInEditor,
  removeLink,
} from './article-editor.ts';

const editors: Editor[] = [];
function editor(content = '') {
  const e = new Editor({ extensions: articleExtensions(), content });
  editors.push(e);
  return e;
}
afterEach(() => {
  for (const e of editors.splice(0)) e.destroy();
});

/**
 * As a browser writes it: happy-dom and sanitize-html close empty elements (`<br />`), Chromium's
 * editor does not (`<br>`); the same markup either way.
 */
const asBrowserWrites = (html: string) => html.replace(/<(br|hr|img)\b([^>]*?) \/>/g, '<$1$2>');

/** Runs a toolbar button's action, by its name. */
const press = (e: Editor, name: (typeof articleCommands)[number]['name']) => articleCommands.find((c) => c.name === name)!.run(e);
const type = (e: Editor, text: string) => e.commands.insertContent(text);
const enter = (e: Editor) => e.commands.enter();

describe('what the editor writes survives the sanitiser unchanged', () => {
  it('every toolbar action: headings, bold, italic, lists, a link, a quote', () => {
    const e = editor();
    press(e, 'Heading 2');
    type(e, 'Naming a guardian');
    enter(e);
    type(e, 'Who looks after ');
    press(e, 'Bold');
    type(e, 'your children');
    press(e, 'Bold');
    type(e, ' and ');
    press(e, 'Italic');
    type(e, 'when');
    press(e, 'Italic');
    enter(e);
    press(e, 'Heading 3');
    type(e, 'What to decide');
    enter(e);
    press(e, 'Bulleted list');
    type(e, 'A guardian');
    enter(e);
    type(e, 'A backup');
    enter(e);
    enter(e); // out of the list
    press(e, 'Numbered list');
    type(e, 'First step');
    enter(e);
    enter(e);
    type(e, 'Read ');
    applyLink(e, 'https://example.com/guide');
    type(e, ' or ');
    type(e, 'call us');
    e.commands.setTextSelection({ from: e.state.selection.from - 'call us'.length, to: e.state.selection.from });
    applyLink(e, 'tel:+16195550100');
    e.commands.setTextSelection(e.state.selection.to);
    enter(e);
    press(e, 'Quote');
    type(e, 'Plan early.');
    const html = asBrowserWrites(articleHtml(e));
    expect(html).toBe(
      '<h2>Naming a guardian</h2><p>Who looks after <strong>your children</strong> and <em>when</em></p><h3>What to decide</h3>' +
        '<ul><li><p>A guardian</p></li><li><p>A backup</p></li></ul><ol><li><p>First step</p></li></ol>' +
        '<p>Read <a href="https://example.com/guide">https://example.com/guide</a> or <a href="tel:+16195550100">call us</a></p>' +
        '<blockquote><p>Plan early.</p></blockquote>',
    );
    expect(asBrowserWrites(sanitizeArticleHtml(html))).toBe(html);
    // Undone, each step comes back off; an empty editor is an empty content (the form's 'Content is required').
    while (e.can().undo()) e.commands.undo();
    expect(articleHtml(e)).toBe('');
  });

  it('a link removed is gone, its words kept', () => {
    const e = editor('<p><a href="https://example.com">Read this</a></p>');
    e.commands.setTextSelection(3);
    removeLink(e);
    expect(articleHtml(e)).toBe('<p>Read this</p>');
  });

  it('what the sanitiser allows and the editor keeps: code, rules, breaks, underline, strike, h4, images', () => {
    const source =
      '<h4>Small print</h4><p>A <code>will</code>, <u>underlined</u>, <s>struck</s>,<br>broken.</p><hr><pre><code>line one\nline two</code></pre>' +
      '<img src="https://media.example.com/a.jpg" alt="A family">' +
      '<ol start="3"><li><p>Third</p></li></ol><p><a href="/contact">Contact us</a> or <a href="mailto:office@example.com">write</a>.</p>';
    const html = asBrowserWrites(editor(source).getHTML());
    expect(asBrowserWrites(sanitizeArticleHtml(html))).toBe(html);
    expect(html).toContain('<ol start="3">');
    expect(markupLostInEditor(source, html)).toEqual([]);
  });

  it('articles written before the editor come through it as the sanitiser keeps them', () => {
    const stored = sanitizeArticleHtml('<h2>Old</h2>\n<p>An <b>old</b> <i>post</i> with <a href="https://example.com" target="_blank">a link</a>.</p>');
    const html = asBrowserWrites(editor(stored).getHTML());
    expect(html).toBe(
      '<h2>Old</h2><p>An <strong>old</strong> <em>post</em> with <a target="_blank" rel="noopener noreferrer" href="https://example.com">a link</a>.</p>',
    );
    expect(asBrowserWrites(sanitizeArticleHtml(html))).toBe(html);
  });

  it('never writes a javascript: or data: link, typed, pasted or set', () => {
    const e = editor('<p><a href="javascript:alert(1)">bad</a> <a href="data:text/html,x">worse</a></p>');
    expect(e.getHTML()).toBe('<p>bad worse</p>');
    e.commands.selectAll();
    expect(e.commands.setLink({ href: 'javascript:alert(1)' })).toBe(false);
    expect(e.getHTML()).not.toContain('javascript');
  });
});

describe('the link prompt', () => {
  it('accepts web, mail and phone addresses and paths on this site', () => {
    expect(linkAddress(' https://example.com/a?b=1 ')).toEqual({ href: 'https://example.com/a?b=1' });
    expect(linkAddress('mailto:office@example.com')).toEqual({ href: 'mailto:office@example.com' });
    expect(linkAddress('tel:+16195550100')).toEqual({ href: 'tel:+16195550100' });
    expect(linkAddress('/contact')).toEqual({ href: '/contact' });
    expect(linkAddress('#fees')).toEqual({ href: '#fees' });
  });

  it('adds https:// to a bare domain', () => {
    expect(linkAddress('courts.ca.gov/selfhelp')).toEqual({ href: 'https://courts.ca.gov/selfhelp' });
  });

  it('refuses script and data addresses, protocol-relative ones, spaces and nothing', () => {
    for (const bad of ['javascript:alert(1)', 'JavaScript:void(0)', ' data:text/html,x', 'vbscript:x', '//evil.example', 'https://a b', 'ftp://x.example']) {
      expect(linkAddress(bad), bad).toHaveProperty('error');
      expect(linkAddressAllowed(bad), bad).toBe(false);
    }
    expect(linkAddress('  ')).toEqual({ error: 'Enter the address the link goes to' });
  });
});

describe('markup the editor cannot keep', () => {
  it('names what the editor would drop, so such a post opens as HTML', () => {
    const source = '<p>Fees</p><table><tbody><tr><td>1</td></tr></tbody></table><figure><figcaption>x</figcaption></figure>';
    expect(markupLostInEditor(source, editor(source).getHTML())).toEqual(['figcaption', 'figure', 'table', 'tbody', 'td', 'tr']);
  });
});
