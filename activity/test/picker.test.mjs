import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Picker, sourcesOf } from '../src/picker.js';

const MOVES = [
  { move: '3:H', from: 'home-A', to: '3', label: 'enter on 3' },
  { move: '3:5', from: '5', to: '8', label: 'piece on 5 to 8' },
  { move: '2:5', from: '5', to: '7', label: 'piece on 5 to 7' },
  { move: '4:7', from: '7', to: 'home-B', label: 'piece on 7 arrives' },
  { move: '5:7', from: '7', to: 'home-B', label: 'piece on 7 arrives (5)' },
];

test('the movable pieces are the moves grouped by where they start', () => {
  assert.deepEqual([...sourcesOf(MOVES).keys()], ['home-A', '5', '7']);
});

test('touching a movable piece selects it and shows only its landing places', () => {
  const picker = new Picker(MOVES);
  assert.deepEqual(picker.touch(['5']), { selected: '5' });
  assert.deepEqual([...picker.targets().keys()], ['8', '7']);
});

test('touching a landing place of the selected piece plays that move', () => {
  const picker = new Picker(MOVES);
  picker.touch(['5']);
  assert.deepEqual(picker.touch(['8']), { play: [MOVES[1]] });
});

test('a stack standing on the landing place counts as the place (a capture)', () => {
  const picker = new Picker(MOVES);
  picker.touch(['home-A']);
  assert.deepEqual(picker.touch(['3']), { play: [MOVES[0]] });
});

test('touching another movable piece selects it instead', () => {
  const picker = new Picker(MOVES);
  picker.touch(['5']);
  assert.deepEqual(picker.touch(['7']), { play: [MOVES[2]] }, '7 is where the piece on 5 lands with a 2');
  const other = new Picker(MOVES);
  other.touch(['home-A']);
  assert.deepEqual(other.touch(['7']), { selected: '7' });
});

test('two throws landing on the same place are both offered', () => {
  const picker = new Picker(MOVES);
  picker.touch(['7']);
  assert.deepEqual(picker.touch(['home-B']), { play: [MOVES[3], MOVES[4]] });
});

test('touching an empty place clears the choice; touching the chosen piece again too', () => {
  const picker = new Picker(MOVES);
  picker.touch(['5']);
  assert.deepEqual(picker.touch(['1']), { selected: null });
  picker.touch(['5']);
  assert.deepEqual(picker.touch(['5']), { selected: null });
});

test('a spectator has nothing to touch', () => {
  const picker = new Picker([]);
  assert.equal(picker.active, false);
  assert.deepEqual(picker.touch(['5']), { selected: null });
});
