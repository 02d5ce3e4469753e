/** One server-sent event: its type (`message` when the server named none) and its data. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Parses a `text/event-stream` body as the HTML standard describes, for streams that
 * `EventSource` cannot open (it only sends GET). Yields each event as soon as its blank line
 * arrives; an event left unfinished when the stream ends is dropped, as the standard says.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new ServerSentEventParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
  } finally {
    // Stops the download when the caller leaves the loop early.
    await reader.cancel().catch(() => undefined);
  }
}

export class ServerSentEventParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private sawCarriageReturn = false;

  /** Feeds more text; returns the events it completed. */
  push(text: string): ServerSentEvent[] {
    let input = text;
    // A CRLF split across two pushes: the LF belongs to the line already ended.
    if (this.sawCarriageReturn && input.startsWith('\n')) input = input.slice(1);
    this.sawCarriageReturn = input.endsWith('\r');
    this.buffer += input;
    const lines = this.buffer.split(/\r\n|\r|\n/);
    this.buffer = lines.pop() ?? '';
    const events: ServerSentEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | null {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = '';
        return null;
      }
      const event = { event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}
