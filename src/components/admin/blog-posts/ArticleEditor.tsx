/**
 * A post's content, written as on the page it will be (issue 19): a TipTap editor with the article's
 * own styles, a toolbar (headings, bold, italic, lists, link, quote, undo and redo; one Tab stop, the
 * arrow keys move along it, as a WAI-ARIA toolbar) and an HTML view, a textarea with the source,
 * whose edits flow back into the editor. The form holds the HTML (`value`); the server sanitises it
 * on save with the one policy the editor's output is tested against (./article-editor.test.ts). A
 * post holding markup the editor cannot keep (a table) opens in the HTML view and stays there.
 *
 * On a phone: the toolbar wraps, sticks to the top of the screen while the article scrolls, and the
 * editor keeps the line being typed clear of it and of the sticky Save bar below.
 */
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { Bold, Code, Heading2, Heading3, Italic, Link2, List, ListOrdered, type LucideIcon, Quote, Redo2, Undo2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { proseClasses } from '../../blog/prose.ts';
import { Button, buttonClass } from '../../ui/button.tsx';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog.tsx';
import { Field, FieldError, Input, RequiredMark, Textarea } from '../../ui/form.tsx';
import { applyLink, articleCommands, articleExtensions, articleHtml, linkAddress, markupLostInEditor, removeLink } from './article-editor.ts';

const icons: Record<(typeof articleCommands)[number]['name'], LucideIcon> = {
  'Heading 2': Heading2,
  'Heading 3': Heading3,
  Bold,
  Italic,
  'Bulleted list': List,
  'Numbered list': ListOrdered,
  Quote,
};

/** What the form gives its focus to (the first field with an error): the editor, or the HTML view. */
export interface ArticleEditorHandle {
  focus: () => void;
}

export default function ArticleEditor({
  value,
  onChange,
  onBlur,
  label,
  hint,
  error,
  required = false,
  handle,
}: {
  value: string;
  onChange: (html: string) => void;
  onBlur?: () => void;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  handle?: Ref<ArticleEditorHandle>;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined;
  const [html, setHtml] = useState(false);
  /** Markup the editor would drop (./article-editor.ts markupLostInEditor): the HTML view only. */
  const [lost, setLost] = useState<string[]>([]);
  const [linking, setLinking] = useState(false);
  const source = useRef<HTMLTextAreaElement>(null);
  // What the editor last gave the form: a different value came from elsewhere (a restored draft, the HTML view).
  const lastEmitted = useRef(value);
  const openLinkPrompt = useRef(() => setLinking(true));

  const [extensions] = useState(articleExtensions);
  // Options given again on each render: useEditor passes changed ones on (the description, the error state).
  const attributes: Record<string, string> = {
    id: `${id}-editor`,
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': labelId,
    class: `${proseClasses} min-h-64 px-3 py-2 text-foreground focus:outline-none`,
  };
  if (describedBy) attributes['aria-describedby'] = describedBy;
  if (error) attributes['aria-invalid'] = 'true';
  if (required) attributes['aria-required'] = 'true';

  const editor = useEditor({
    extensions,
    content: value,
    editorProps: {
      attributes,
      // Room for the sticky toolbar above and the sticky Save bar below the line being typed.
      scrollThreshold: { top: 120, bottom: 96, left: 0, right: 0 },
      scrollMargin: { top: 120, bottom: 96, left: 0, right: 0 },
      handleKeyDown: (_view, event) => {
        if ((event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'k') {
          event.preventDefault();
          openLinkPrompt.current();
          return true;
        }
        return false;
      },
    },
    onCreate: ({ editor: created }) => {
      const dropped = markupLostInEditor(value, created.getHTML());
      if (dropped.length > 0) {
        setLost(dropped);
        setHtml(true);
      }
    },
    onUpdate: ({ editor: changed }) => {
      const next = articleHtml(changed);
      lastEmitted.current = next;
      onChange(next);
    },
    onBlur: () => onBlur?.(),
  });

  // A value from elsewhere (a draft restored, the HTML view) goes into the editor.
  useEffect(() => {
    if (!editor || value === lastEmitted.current) return;
    lastEmitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    if (!handle) return;
    const target = { focus: () => (html ? source.current?.focus() : editor?.commands.focus()) };
    if (typeof handle === 'function') handle(target);
    else (handle as { current: ArticleEditorHandle | null }).current = target;
  }, [handle, html, editor]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) =>
      e
        ? {
            active: articleCommands.map((c) => c.active(e)),
            link: e.isActive('link'),
            canUndo: e.can().undo(),
            canRedo: e.can().redo(),
          }
        : null,
  });

  const showRich = () => {
    if (!editor) return;
    editor.commands.setContent(value, { emitUpdate: false });
    lastEmitted.current = value;
    const dropped = markupLostInEditor(value, editor.getHTML());
    setLost(dropped);
    if (dropped.length > 0) return; // stays in the HTML view, which says why
    setHtml(false);
    requestAnimationFrame(() => editor.commands.focus());
  };

  return (
    <div className="space-y-1.5">
      <span id={labelId} className="block text-sm font-medium">
        {label}
        {required && <RequiredMark />}
      </span>
      <div
        className={`rounded-md border bg-background ${error ? 'border-2 border-destructive' : 'border-input'} focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-ring`}
      >
        <Toolbar
          controls={html ? `${id}-source` : `${id}-editor`}
          html={html}
          onHtmlChange={(next) => (next ? setHtml(true) : showRich())}
          ready={!html && !!editor}
          state={state}
          run={(index) => editor && articleCommands[index]!.run(editor)}
          onLink={() => setLinking(true)}
          onUndo={() => editor?.chain().focus().undo().run()}
          onRedo={() => editor?.chain().focus().redo().run()}
        />
        {html ? (
          <div className="space-y-2 p-2">
            {lost.length > 0 && (
              <p className="text-sm text-muted-foreground" id={`${id}-lost`}>
                This article has markup the editor cannot keep ({lost.join(', ')}): edit it here, as HTML.
              </p>
            )}
            <Textarea
              ref={source}
              id={`${id}-source`}
              aria-label={`${label} (HTML)`}
              aria-describedby={[lost.length > 0 && `${id}-lost`, describedBy].filter(Boolean).join(' ') || undefined}
              aria-invalid={error ? true : undefined}
              rows={16}
              spellCheck={false}
              className="font-mono"
              value={value}
              onChange={(event) => {
                lastEmitted.current = event.target.value;
                onChange(event.target.value);
              }}
              onBlur={onBlur}
            />
          </div>
        ) : (
          <EditorContent editor={editor} />
        )}
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={errorId} message={error} />
      <LinkPrompt
        open={linking}
        current={editor?.isActive('link') ? String(editor.getAttributes('link').href ?? '') : ''}
        onClose={() => {
          setLinking(false);
        }}
        onApply={(href) => editor && applyLink(editor, href)}
        onRemove={() => editor && removeLink(editor)}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          editor?.commands.focus();
        }}
      />
    </div>
  );
}

interface Tool {
  name: string;
  icon: LucideIcon;
  keys: string;
  pressed?: boolean;
  enabled: boolean;
  onClick: () => void;
}

function Toolbar({
  controls,
  html,
  onHtmlChange,
  ready,
  state,
  run,
  onLink,
  onUndo,
  onRedo,
}: {
  /** The editor's id. */
  controls: string;
  html: boolean;
  onHtmlChange: (html: boolean) => void;
  /** False in the HTML view (and while the editor starts): only the HTML toggle works. */
  ready: boolean;
  state: { active: boolean[]; link: boolean; canUndo: boolean; canRedo: boolean } | null;
  run: (index: number) => void;
  onLink: () => void;
  onUndo: () => void;
  onRedo: () => void;
}) {
  const tools: Tool[] = [
    ...articleCommands.map((command, index) => ({
      name: command.name,
      icon: icons[command.name],
      keys: command.keys,
      pressed: !!state?.active[index],
      enabled: ready,
      onClick: () => run(index),
    })),
    { name: 'Link', icon: Link2, keys: 'Control+K', pressed: !!state?.link, enabled: ready, onClick: onLink },
    { name: 'Undo', icon: Undo2, keys: 'Control+Z', enabled: ready && !!state?.canUndo, onClick: onUndo },
    { name: 'Redo', icon: Redo2, keys: 'Control+Shift+Z', enabled: ready && !!state?.canRedo, onClick: onRedo },
  ];
  // One Tab stop (the last button used, or the HTML toggle when that one cannot be used now); the
  // arrow keys, Home and End move along the buttons that work.
  const bar = useRef<HTMLDivElement>(null);
  const [current, setCurrent] = useState(0);
  const stop = tools[current]?.enabled ? current : tools.length;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = Array.from(bar.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? []);
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    all[(to + all.length) % all.length]?.focus();
  };
  const pressedLook = 'aria-pressed:bg-primary aria-pressed:text-primary-foreground';

  return (
    <div
      ref={bar}
      role="toolbar"
      aria-label="Formatting"
      aria-controls={controls}
      onKeyDown={onKeyDown}
      className="sticky top-0 z-10 flex flex-wrap items-center gap-1 rounded-t-md border-b border-border bg-muted p-1"
    >
      {tools.map(({ name, icon: Icon, keys, pressed, enabled, onClick }, index) => (
        <button
          key={name}
          type="button"
          className={buttonClass('ghost', 'icon', pressedLook)}
          aria-label={name}
          title={`${name} (${keys.replace('Control', 'Ctrl')})`}
          aria-keyshortcuts={keys}
          aria-pressed={pressed}
          aria-haspopup={name === 'Link' ? 'dialog' : undefined}
          disabled={!enabled}
          tabIndex={index === stop ? 0 : -1}
          onFocus={() => setCurrent(index)}
          // A click leaves the focus (and the selection) in the editor: what is typed next goes there.
          onMouseDown={(event) => event.preventDefault()}
          onClick={onClick}
        >
          <Icon aria-hidden="true" className="size-4" />
        </button>
      ))}
      <button
        type="button"
        className={buttonClass('ghost', 'sm', `ml-auto h-10 ${pressedLook}`)}
        aria-pressed={html}
        title="Show the HTML source"
        tabIndex={stop === tools.length ? 0 : -1}
        onFocus={() => setCurrent(tools.length)}
        onClick={() => onHtmlChange(!html)}
      >
        <Code aria-hidden="true" className="size-4" />
        HTML
      </button>
    </div>
  );
}

/** The link's address, asked in a dialog: checked as the site will keep it (no javascript:). */
function LinkPrompt({
  open,
  current,
  onClose,
  onApply,
  onRemove,
  onCloseAutoFocus,
}: {
  open: boolean;
  current: string;
  onClose: () => void;
  onApply: (href: string) => void;
  onRemove: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (open) {
      setAddress(current);
      setError(undefined);
    }
  }, [open, current]);
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        title={current ? 'Edit Link' : 'Add Link'}
        description="Selected words become the link; with none selected, the address is added as the link's text."
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            // The dialog's form sits inside the post's form in React's tree: its submit must not reach it.
            event.stopPropagation();
            const result = linkAddress(address);
            if ('error' in result) {
              setError(result.error);
              return;
            }
            onApply(result.href);
            onClose();
          }}
        >
          <Field label="Link Address" error={error} hint="https://..., mailto:, tel:, or a page of this site such as /contact.">
            <Input type="url" inputMode="url" autoComplete="off" spellCheck={false} value={address} onChange={(event) => setAddress(event.target.value)} />
          </Field>
          <DialogFooter action={current ? 'Update Link' : 'Add Link'}>
            {current && (
              <Button
                variant="outline"
                onClick={() => {
                  onRemove();
                  onClose();
                }}
              >
                Remove Link
              </Button>
            )}
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
