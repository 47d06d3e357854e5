// The pages' tables of rows, in one frame: the table in `.table-scroll`, which scrolls sideways
// inside its card when the table is wider than the card (rather than widening the page), a header
// row of column headers, and cells of times. The scrolling frame must be reachable from the
// keyboard (axe: scrollable-region-focusable), and a table of text alone has nothing inside it to
// focus, so the frame takes the focus itself, named after its table. It is a group, not a region:
// a named region is a landmark, and the card around the table is one already.
import { isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { Timestamp } from './timestamp';

/**
 * A column's header: its text; `{ hidden }` for a column of buttons or links, whose header only
 * assistive technology reads; a `<th>` of its own (a sort link, a box that selects every row); or
 * `false` for a column left out.
 */
export type Column = string | { hidden: string } | ReactElement | false;

/** The table's name: a heading already on the page (its id), or a caption only assistive technology reads. */
type TableName = { labelledBy: string; caption?: never } | { caption: ReactNode; labelledBy?: never };

function HeaderCell({ column }: { column: Exclude<Column, false> }) {
  if (typeof column === 'string') return <th scope="col">{column}</th>;
  if (isValidElement(column)) return column;
  return (
    <th scope="col">
      <span className="visually-hidden">{column.hidden}</span>
    </th>
  );
}

/** A table of `children`, its rows (`<tr>` each), under a header row of `columns`. */
export function DataTable({
  columns,
  className,
  describedBy,
  children,
  ...name
}: TableName & { columns: Column[]; className?: string; describedBy?: string; children: ReactNode }) {
  const captionId = useId();
  return (
    <div className="table-scroll" role="group" tabIndex={0} aria-labelledby={name.labelledBy ?? captionId}>
      <table className={className} aria-labelledby={name.labelledBy} aria-describedby={describedBy}>
        {name.caption !== undefined && (
          <caption id={captionId} className="visually-hidden">
            {name.caption}
          </caption>
        )}
        <thead>
          <tr>{columns.map((column, index) => column !== false && <HeaderCell key={index} column={column} />)}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A cell of a time, machine-readable (`<time dateTime>`), or `none` when there is none. */
export function TimeCell({ className, ...time }: Parameters<typeof Timestamp>[0] & { className?: string }) {
  return (
    <td className={className}>
      <Timestamp {...time} />
    </td>
  );
}
