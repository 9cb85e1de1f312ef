// The one button: at least 44 px, a visible focus ring (globals.css), a label always.
import type { ButtonHTMLAttributes } from 'react';

export function Button({ variant = 'default', type = 'button', ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'default' | 'primary' | 'danger' }) {
  return <button type={type} className="btn" data-variant={variant} {...rest} />;
}
