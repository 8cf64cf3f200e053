import { CompiledQuery } from 'kysely';
import type { Executor } from './executor';

/** pg's connection, as far as a COPY needs it. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

const CHUNK = 64 * 1024;

/**
 * `COPY … FROM STDIN` as a pg "submittable" query: once the server asks for the data, the whole
 * payload goes as CopyData messages of 64 kB, then CopyDone. It is awaited like a query result,
 * so it runs on whatever connection Kysely holds (inside the caller's transaction).
 */
class CopyIn {
  rowCount = 0;
  private readonly done: Promise<{ rows: never[]; rowCount: number; command: string }>;
  private resolve!: (value: { rows: never[]; rowCount: number; command: string }) => void;
  private reject!: (error: unknown) => void;
  private failed: unknown = null;

  constructor(
    private readonly text: string,
    private readonly payload: Buffer,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  then<T>(onFulfilled: (value: { rows: never[]; rowCount: number; command: string }) => T, onRejected?: (error: unknown) => T): Promise<T> {
    return this.done.then(onFulfilled, onRejected);
  }

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    for (let i = 0; i < this.payload.length; i += CHUNK) connection.sendCopyFromChunk(this.payload.subarray(i, i + CHUNK));
    connection.endCopyFrom();
  }

  handleCommandComplete(message: { text?: string }): void {
    this.rowCount = Number(/(\d+)$/.exec(message.text ?? '')?.[1] ?? 0);
  }

  handleReadyForQuery(): void {
    if (this.failed) this.reject(this.failed);
    else this.resolve({ rows: [], rowCount: this.rowCount, command: 'COPY' });
  }

  handleError(error: unknown): void {
    // pg calls this and then, once the server is ready again, handleReadyForQuery.
    this.failed = error;
    this.reject(error);
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleEmptyQuery(): void {}
  handleCopyData(): void {}
}

/**
 * Runs `COPY <table> (<columns>) FROM STDIN (FORMAT csv)` with `rows` as its data, on the
 * executor's connection (inside its transaction, if it is one). PostgreSQL only: the embedded
 * database's server takes no COPY data. Resolves to the rows copied.
 */
export async function copyRows(db: Executor, table: string, columns: readonly string[], rows: readonly (readonly CsvValue[])[]): Promise<number> {
  const text = `COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT csv)`;
  const payload = Buffer.from(rows.map((r) => r.map(csvValue).join(',')).join('\n') + (rows.length > 0 ? '\n' : ''), 'utf8');
  // Kysely hands the query's text to pg as it is; pg runs an object with `submit` as the query.
  const copy = new CopyIn(text, payload);
  await db.executeQuery({ ...CompiledQuery.raw(''), sql: copy as unknown as string });
  return copy.rowCount;
}

/** A value of a COPY row: text is quoted (so an empty text stays empty), null is left bare. */
export type CsvValue = string | number | null;

function csvValue(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  return `"${value.replaceAll('"', '""')}"`;
}
