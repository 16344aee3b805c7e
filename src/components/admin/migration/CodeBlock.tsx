/**
 * A command or a definition the admin copies (the table's AWS CLI command and its JSON): the exact
 * text in a scrollable block that the keyboard can reach and scroll, and a Copy button whose outcome
 * is announced.
 */
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../ui/button.tsx';

export default function CodeBlock({ label, code, wrap = false, testId }: { label: string; code: string; wrap?: boolean; testId?: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new code to copy resets the Copied state
  useEffect(() => setCopied('idle'), [code]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <figure className="min-w-0 space-y-2" data-testid={testId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption className="text-sm font-medium text-foreground">{label}</figcaption>
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          {copied === 'copied' ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
          Copy<span className="sr-only"> {label}</span>
        </Button>
      </div>
      {/* Focusable so a keyboard user can scroll it (WCAG 2.1.1). */}
      <pre
        tabIndex={0}
        className={`max-h-80 overflow-auto rounded-md border border-border bg-muted p-3 font-mono text-xs leading-relaxed text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ${wrap ? 'whitespace-pre-wrap break-all' : 'whitespace-pre'}`}
      >
        <code>{code}</code>
      </pre>
      <p role="status" className="min-h-4 text-xs text-muted-foreground">
        {copied === 'copied' ? `${label} copied to the clipboard.` : copied === 'failed' ? 'Could not copy. Select the text and copy it yourself.' : ''}
      </p>
    </figure>
  );
}
