import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { StreamMessageReader } from 'vscode-languageserver/node';
import type { Message } from 'vscode-languageserver/node';
import { encodeFrame, FrameWriter } from '../../server/src/connection/frameWriter';

/** A stream that records each write it is given, as the bytes it was given. */
function recordingStream() {
  const stream = new PassThrough();
  const writes: Buffer[] = [];
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: Buffer, ...rest: unknown[]) => {
    writes.push(Buffer.from(chunk));
    return write(chunk, ...rest);
  }) as typeof stream.write;
  return { stream, writes };
}

function readMessages(stream: PassThrough, count: number): Promise<Message[]> {
  const reader = new StreamMessageReader(stream);
  const messages: Message[] = [];
  return new Promise((resolve, reject) => {
    reader.onError(reject);
    reader.listen((message) => {
      messages.push(message);
      if (messages.length === count) resolve(messages);
    });
  });
}

describe('FrameWriter: one write per JSON-RPC message', () => {
  test('each message goes out as one write of its header and body, read back in order by a standard reader', async () => {
    const { stream, writes } = recordingStream();
    const writer = new FrameWriter(stream);
    const messages: Message[] = [
      { jsonrpc: '2.0', id: 1, result: { label: 'plain' } } as Message,
      { jsonrpc: '2.0', id: 2, result: { label: 'résumé ✓ 🚀 変数' } } as Message,
      { jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'x'.repeat(100_000) } } as Message,
    ];
    const read = readMessages(stream, messages.length);
    // Sent without waiting, as the connection does: the order is the order of the calls.
    await Promise.all(messages.map((message) => writer.write(message)));
    assert.deepEqual(await read, messages);
    assert.equal(writes.length, messages.length);
    for (const [index, frame] of writes.entries()) {
      const text = frame.toString('utf8');
      const separator = text.indexOf('\r\n\r\n');
      const declared = Number(/^Content-Length: (\d+)$/.exec(text.slice(0, separator))?.[1]);
      assert.equal(declared, frame.length - separator - 4, 'Content-Length counts the body in bytes');
      assert.deepEqual(JSON.parse(frame.subarray(separator + 4).toString('utf8')), messages[index]);
    }
  });

  test('encodeFrame counts bytes, not characters', () => {
    const frame = encodeFrame({ jsonrpc: '2.0', id: 7, result: 'é🚀' } as Message);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, result: 'é🚀' });
    assert.equal(frame.toString('utf8'), `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    assert.notEqual(Buffer.byteLength(body), body.length);
  });

  test('a message JSON cannot carry is refused and reported, and the stream is left whole for the next', async () => {
    const { stream, writes } = recordingStream();
    const writer = new FrameWriter(stream);
    const errors: Error[] = [];
    writer.onError(([error]) => errors.push(error));
    await assert.rejects(writer.write({ jsonrpc: '2.0', id: 1, result: 10n } as unknown as Message));
    assert.equal(errors.length, 1);
    assert.equal(writes.length, 0);
    const next = { jsonrpc: '2.0', id: 2, result: null } as Message;
    const read = readMessages(stream, 1);
    await writer.write(next);
    assert.deepEqual(await read, [next]);
  });

  test('a stream that fails or closes is reported, and a write to it is rejected', async () => {
    const stream = new PassThrough();
    const writer = new FrameWriter(stream);
    const errors: Error[] = [];
    let closed = false;
    writer.onError(([error]) => errors.push(error));
    writer.onClose(() => (closed = true));
    const reported = new Promise((resolve) => stream.once('close', resolve));
    stream.destroy(new Error('pipe broken'));
    await reported;
    assert.ok(errors.some((error) => error.message === 'pipe broken'));
    assert.equal(closed, true);
    await assert.rejects(writer.write({ jsonrpc: '2.0', id: 3, result: null } as Message));
  });

  test('messages sent together leave in one write (writev) at the end, in order; others one write each, at once', async () => {
    const batches: Buffer[][] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        batches.push([chunk]);
        done();
      },
      writev(chunks, done) {
        batches.push(chunks.map(({ chunk }) => chunk as Buffer));
        done();
      },
    });
    const writer = new FrameWriter(stream);
    const notification = (index: number) => ({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: `file:///f${index}.tf`, diagnostics: [] } }) as Message;
    let written: Promise<void>[] = [];
    writer.together(() => {
      written = [1, 2, 3].map((index) => writer.write(notification(index)));
      assert.equal(batches.length, 0, 'nothing leaves before the burst ends');
    });
    await Promise.all(written);
    assert.equal(batches.length, 1, 'the burst is one write');
    assert.deepEqual(
      batches[0].map((frame) => JSON.parse(frame.subarray(frame.indexOf('\r\n\r\n') + 4).toString('utf8'))),
      [1, 2, 3].map(notification),
    );
    // A message on its own is written at once, as before.
    void writer.write(notification(4));
    assert.equal(batches.length, 2);
    // A burst that throws still releases what it sent.
    assert.throws(() =>
      writer.together(() => {
        void writer.write(notification(5));
        throw new Error('publishing failed');
      }),
    );
    assert.equal(batches.length, 3);
  });
});
