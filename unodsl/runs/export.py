"""Per-game figures as a table a notebook reads: CSV, or Parquet through pyarrow (the `parquet` extra).

One row a game (and a side, in a comparison); the columns are fixed before the first row, from
the figures the run can produce (metrics.value_names), so every batch of rows, whichever worker
played it, has the same columns. Figures kept in small units (drama in billionths) are written in
their own units (a share from 0 to 1); a figure a game has not (no sole leader at 25%) is empty.
"""

from __future__ import annotations

import csv
import io

from .metrics import dynamic_figure

FORMATS = {".csv": "csv", ".parquet": "parquet"}


def table_format(path: str) -> str | None:
    """"csv" or "parquet" by the file's extension (None for another)."""
    lower = path.lower()
    return next((fmt for ext, fmt in FORMATS.items() if lower.endswith(ext)), None)


class TableWriter:
    """Rows (dicts) written in batches to the binary `handle`, as CSV or Parquet, under fixed columns.

    `labels`: the leading text columns (the comparison, the side); `numbers`: the integer columns that
    say where a row comes from (players, game); `figures`: the figures' names, each a column in its unit.
    """

    def __init__(self, handle, fmt: str, labels: list[str], numbers: list[str], figures: list[str]):
        self.fmt, self.labels, self.numbers, self.figures = fmt, labels, numbers, figures
        self.scales = {name: dynamic_figure(name).scale for name in figures}
        self.columns = [*labels, *numbers, *figures]
        if fmt == "csv":
            self.text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
            self.csv = csv.writer(self.text)
            self.csv.writerow(self.columns)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq
            fields = ([pa.field(name, pa.string()) for name in labels]
                      + [pa.field(name, pa.int64()) for name in numbers]
                      + [pa.field(name, pa.int64() if self.scales[name] == 1 else pa.float64()) for name in figures])
            self.schema = pa.schema(fields)
            self.parquet = pq.ParquetWriter(handle, self.schema)

    def _value(self, name: str, value):
        if value is None:
            return None
        scale = self.scales[name]
        return value if scale == 1 else value / scale

    def write(self, rows: list[dict]) -> None:
        """Write a batch of rows; a column a row does not have is empty."""
        if not rows:
            return
        if self.fmt == "csv":
            for row in rows:
                self.csv.writerow([*(row.get(c, "") for c in self.labels), *(row.get(c, "") for c in self.numbers),
                                   *("" if (v := self._value(c, row.get(c))) is None else v for c in self.figures)])
            return
        import pyarrow as pa
        data = {c: [row.get(c) for row in rows] for c in (*self.labels, *self.numbers)}
        for c in self.figures:
            data[c] = [self._value(c, row.get(c)) for row in rows]
        self.parquet.write_table(pa.Table.from_pydict(data, schema=self.schema))

    def close(self) -> None:
        """Finish the table (the handle stays open for its owner to close)."""
        if self.fmt == "csv":
            self.text.flush()
            self.text.detach()
        else:
            self.parquet.close()
