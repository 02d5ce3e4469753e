import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import '../../../styles/bootstrap-tables.scss';

/** A section of the moderators' pages: a heading that names it, and what it holds. */
export function PanelSection({ id, heading, className = 'mb-4', children }: { id: string; heading: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="h5">
        {heading}
      </h2>
      {children}
    </section>
  );
}

/** A small table of the moderators' pages, named by `label`, with a heading per column. */
export function PanelTable({ label, columns, children }: { label: string; columns: ReactNode[]; children: ReactNode }) {
  return (
    <Table responsive size="sm" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </Table>
  );
}

/** When something happened, in the moderator's own locale and time zone. */
export const when = (iso: string) => new Date(iso).toLocaleString();
