import type { ReactNode } from 'react';

/**
 * A wide table's own sideways scroll on a narrow screen (the page never scrolls sideways): a
 * region named by `label` that the keyboard reaches (axe: scrollable-region-focusable). /admin's
 * People, Subscribers and Audit log tables sit in one.
 */
export function ScrollsSideways({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `table-responsive ${className}` : 'table-responsive'} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
