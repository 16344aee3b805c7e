/**
 * The one Button, of the admin and the public islands alike: its looks come from ./button-class.ts,
 * which links that look like buttons use too. Touch targets are at least 40px high (44px on phones),
 * focus is always visible (WCAG 2.2 AA).
 */
import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { buttonClass, type ButtonSize, type ButtonVariant } from './button-class.ts';

export { buttonClass, type ButtonSize, type ButtonVariant } from './button-class.ts';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button({ variant, size, className = '', type = 'button', ...props }, ref) {
  return <button ref={ref} type={type} className={buttonClass(variant, size, className)} {...props} />;
});
