/** Cards and badges of the admin screens. Badges carry words, never meaning by colour alone. */
import type { HTMLAttributes, ReactNode } from 'react';

export function Card({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`rounded-lg border border-border bg-card text-card-foreground shadow-sm ${className}`} {...props} />;
}

export function CardHeader({
  title,
  description,
  actions,
  as: Heading = 'h2',
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  as?: 'h2' | 'h3';
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 p-4 pb-2 sm:p-6 sm:pb-2">
      <div className="min-w-0 space-y-1">
        <Heading className="text-lg font-semibold leading-tight">{title}</Heading>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

export function CardContent({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`p-4 pt-2 sm:p-6 sm:pt-2 ${className}`} {...props} />;
}

const badgeVariants = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-secondary text-secondary-foreground',
  outline: 'border-border text-foreground',
  success: 'border-transparent bg-emerald-700 text-white',
  warning: 'border-transparent bg-amber-200 text-amber-950',
  destructive: 'border-transparent bg-destructive text-destructive-foreground',
} as const;

export type BadgeVariant = keyof typeof badgeVariants;

export function Badge({ variant = 'default', className = '', ...props }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full border px-2.5 py-0.5 text-xs font-semibold ${badgeVariants[variant]} ${className}`}
      {...props}
    />
  );
}
