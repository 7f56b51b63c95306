import type { ReactNode } from "react"

// A data table with a caption (read by screen readers, hidden when `captionHidden`) that scrolls sideways on
// a phone instead of squeezing. Columns: a header and how to show one row.
export interface Column<Row> {
  readonly header: string
  readonly cell: (row: Row) => ReactNode
  /** Right-aligned numbers, or a narrow actions column. */
  readonly align?: "start" | "end"
}

export const Table = <Row,>({ caption, captionHidden = false, columns, rows, rowKey }: {
  readonly caption: string
  readonly captionHidden?: boolean
  readonly columns: ReadonlyArray<Column<Row>>
  readonly rows: ReadonlyArray<Row>
  readonly rowKey: (row: Row) => string
}) => (
  <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
    <table className="table">
      <caption className={captionHidden ? "visually-hidden" : undefined}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={column.align === "end" ? "align-end" : undefined}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td key={column.header} className={column.align === "end" ? "align-end" : undefined}>{column.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)
