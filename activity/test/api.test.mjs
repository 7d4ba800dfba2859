import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventParser, apiBase } from '../src/api.js';

test('inside Discord every request goes through the /.proxy/ path', () => {
  assert.equal(apiBase(new URL('https://1057489987654321012.discordsays.com/?frame_id=x&instance_id=y')), '/.proxy/');
});

test('on the web companion itself the API sits beside the page', () => {
  assert.equal(apiBase(new URL('http://127.0.0.1:8080/activity/?frame_id=x')), '/activity/');
  assert.equal(apiBase(new URL('https://puluc.example.org/activity/')), '/activity/');
  assert.equal(apiBase(new URL('https://discordsays.com.example.org/activity/')), '/activity/');
});

test('events split across chunks, comments and CRLF lines are read whole', () => {
  const events = [];
  const parser = new EventParser((name, data) => events.push([name, data]));
  parser.feed(': still here\n\nevent: ga');
  parser.feed('me\r\ndata: {"seq":');
  parser.feed('3}\r\n\r\ndata: one\ndata: two\n\n');
  assert.deepEqual(events, [['game', '{"seq":3}'], ['message', 'one\ntwo']]);
});

test('a comment alone is no event', () => {
  const events = [];
  const parser = new EventParser((name, data) => events.push([name, data]));
  parser.feed(': still here\n\n: still here\n\n');
  assert.deepEqual(events, []);
});
