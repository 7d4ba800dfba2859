// Choosing a move by touching the board: the member touches a movable piece (or their home, to enter one),
// the places it can go are marked, and touching one plays that move. Pure: the moves of the view in, the
// chosen move out; the page (board.js) binds it to the SVG.

/** The moves grouped by where they start: Map(from -> moves), in the order the backend sent them. */
export function sourcesOf(moves) {
  const found = new Map();
  for (const move of moves) {
    if (!found.has(move.from)) found.set(move.from, []);
    found.get(move.from).push(move);
  }
  return found;
}

export class Picker {
  constructor(moves) {
    this.moves = moves;
    this.sources = sourcesOf(moves);
    this.selected = null;
  }

  /** Whether the member has anything to play. */
  get active() {
    return this.moves.length > 0;
  }

  isSource(key) {
    return this.sources.has(key);
  }

  /** Select the piece at `key` (a source); returns whether it is one. Selecting the selected one again clears it. */
  select(key) {
    if (!this.isSource(key)) return false;
    this.selected = this.selected === key ? null : key;
    return true;
  }

  clear() {
    this.selected = null;
  }

  /** The moves of the selected piece, grouped by where they land: Map(to -> moves). */
  targets() {
    const found = new Map();
    for (const move of this.sources.get(this.selected) ?? []) {
      if (!found.has(move.to)) found.set(move.to, []);
      found.get(move.to).push(move);
    }
    return found;
  }

  /** The moves that touching `key` plays now (one, or several that land there by different throws). */
  movesTo(key) {
    return this.targets().get(key) ?? [];
  }

  /**
   * What touching a place whose keys are `keys` (a stack and its cell, a home and its gate) does: play a move
   * landing there, select a piece there, or nothing.
   */
  touch(keys) {
    if (this.selected !== null) {
      for (const key of keys) {
        const moves = this.movesTo(key);
        if (moves.length) return { play: moves };
      }
    }
    for (const key of keys) {
      if (this.select(key)) return { selected: this.selected };
    }
    this.clear();
    return { selected: null };
  }
}
