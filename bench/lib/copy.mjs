// `COPY … FROM STDIN` over the pg client the benches already use. pg has no COPY of its own; this
// is the small part of pg-copy-streams a bench needs: once the server asks for the data, the
// whole payload goes as CopyData messages of 64 kB, then CopyDone.

const CHUNK = 64 * 1024;

class CopyIn {
  constructor(text, payload) {
    this.text = text;
    this.payload = payload;
    this.rowCount = null;
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection) {
    connection.query(this.text);
  }

  handleCopyInResponse(connection) {
    for (let i = 0; i < this.payload.length; i += CHUNK) connection.sendCopyFromChunk(this.payload.subarray(i, i + CHUNK));
    connection.endCopyFrom();
  }

  handleCommandComplete(message) {
    this.rowCount = Number(/(\d+)$/.exec(message.text ?? '')?.[1] ?? NaN);
  }

  handleReadyForQuery() {
    this.resolve(this.rowCount);
  }

  handleError(error) {
    this.reject(error);
  }

  handleRowDescription() {}
  handleDataRow() {}
  handlePortalSuspended() {}
  handleEmptyQuery() {}
  handleCopyData() {}
}

/** Runs `text` (a `COPY … FROM STDIN` statement) on a connected pg client with `payload` (a Buffer) as its data; resolves to the rows copied. */
export function copyFrom(client, text, payload) {
  const copy = new CopyIn(text, payload);
  client.query(copy);
  return copy.promise;
}
