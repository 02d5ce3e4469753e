import { describe, expect, it } from 'vitest';
import { readServerSentEvents, ServerSentEventParser, type ServerSentEvent } from './read-server-sent-events';

function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function collect(pieces: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(streamOf(pieces))) events.push(event);
  return events;
}

describe('readServerSentEvents', () => {
  it('reads named events with JSON data', async () => {
    const events = await collect(['event: meta\ndata: {"model":"m"}\n\nevent: done\ndata: {"html":"<h1>T</h1>"}\n\n']);
    expect(events).toEqual([
      { event: 'meta', data: '{"model":"m"}' },
      { event: 'done', data: '{"html":"<h1>T</h1>"}' },
    ]);
  });

  it('reassembles events split anywhere across chunks, including inside a character', async () => {
    const text = 'event: delta\ndata: {"html":"<p>café</p>"}\n\nevent: done\ndata: {"html":"x"}\n\n';
    const bytes = new TextEncoder().encode(text);
    // One byte at a time: splits the two bytes of 'é' too.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: ServerSentEvent[] = [];
    for await (const event of readServerSentEvents(stream)) events.push(event);
    expect(events).toEqual([
      { event: 'delta', data: '{"html":"<p>café</p>"}' },
      { event: 'done', data: '{"html":"x"}' },
    ]);
  });

  it('accepts CRLF and CR line ends, also with CRLF split between chunks', async () => {
    const events = await collect(['event: a\r', '\ndata: 1\r\n\r', '\nevent: b\rdata: 2\r\r']);
    expect(events).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
    ]);
  });

  it('joins multi-line data, ignores comments and unknown fields, defaults the type to message', async () => {
    const events = await collect([': keep-alive\n\nid: 7\ndata: one\ndata:two\nretry: 10\n\n']);
    expect(events).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });

  it('drops an event the stream ended in the middle of', async () => {
    const events = await collect(['event: delta\ndata: {"html":"a"}\n\nevent: done\ndata: {"html":"ab"}']);
    expect(events).toEqual([{ event: 'delta', data: '{"html":"a"}' }]);
  });

  it('yields each event as soon as its blank line arrives', () => {
    const parser = new ServerSentEventParser();
    expect(parser.push('event: meta\ndata: 1\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'meta', data: '1' }]);
  });
});
