// The one button: at least 44 px, a visible focus ring (globals.css), a label always.
import type { ComponentProps } from 'react';

export function Button({ variant = 'default', type = 'button', ...rest }: ComponentProps<'button'> & { variant?: 'default' | 'primary' | 'danger' }) {
  return <button type={type} className="btn" data-variant={variant} {...rest} />;
}
