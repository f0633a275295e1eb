#!/usr/bin/env node
// Writes the constructed sample sets of tests/mark/data that exercise the parts of the scoring
// where Pictor once differed from MotionMark: mutation rows at every complexity level, ties in
// complexity and in frame length, few distinct complexities, the tiny-range rule, a downward
// slope, sets where mutation rows dominate, and sets MotionMark cannot score.
//
// Pictor's own generator (no MotionMark code here); deterministic, so rerunning it rewrites the
// same files. The older sets (flat, knee, jump, fps120, ramps, single) are committed as they are
// and not rewritten. Usage: node make_sets.js [DATA_DIR]   (default: ../data)
'use strict';

const fs = require('fs');
const path = require('path');

const dataDir = path.resolve(process.argv[2] || path.join(__dirname, '..', 'data'));

// xorshift32 with a fixed seed per set: the noise is reproducible, not meant to be good.
function noiseSource(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

// Rows in time order, the way a controller records them: the first frame at a new complexity is
// a mutation frame, the others animation frames. `frames(level)` gives the frame lengths drawn at
// one level; `mutationCost` is added to the first one (the frame that changed the scene).
function record(levels, frames, mutationCost = 0) {
  const rows = [];
  let t = 0;
  let previous;
  for (const c of levels) {
    frames(c).forEach((length, i) => {
      const mutation = i === 0 && c !== previous;
      const y = length + (mutation ? mutationCost : 0);
      t += y;
      rows.push([mutation ? 'm' : 'a', t, c, y]);
    });
    previous = c;
  }
  return rows;
}

// Complexity levels of `ramps` ramps from about `top` down to `bottom` in `steps` steps each.
function rampLevels(ramps, top, bottom, steps, jitter) {
  const levels = [];
  for (let r = 0; r < ramps; ++r) {
    const high = top + Math.round((jitter() - 0.5) * 0.2 * top);
    for (let i = 0; i <= steps; ++i) levels.push(Math.max(bottom, Math.floor(high + (bottom - high) * i / steps)));
  }
  return levels;
}

const period = 1000 / 60;

function knee(c, at, slope) { return period + Math.max(0, c - at) * slope; }

const sets = {
  // Ramp-like: one mutation frame per complexity level, then animation frames; mutation frames
  // cost 3 ms more (they rebuild the scene). The case the 428.95 vs 429.88 came from.
  'steps.json': () => {
    const r = noiseSource(1);
    const levels = rampLevels(10, 1000, 50, 24, r);
    return {fps: 60, samples: record(levels, (c) => {
      const y = knee(c, 430, 0.03);
      return Array.from({length: Math.max(2, Math.round(120 / y))}, () => y + (r() - 0.5) * 0.8);
    }, 3)};
  },
  // Vsync-quantised lengths (exactly 1 or 2 periods) at complexities that repeat across ramps:
  // ties in complexity and in frame length, so only a stable sort gives the same sums.
  'ties.json': () => {
    const r = noiseSource(2);
    const levels = [];
    for (let ramp = 0; ramp < 8; ++ramp)
      for (let c = 600; c >= 200; c -= 20) levels.push(c);
    return {fps: 60, samples: record(levels, (c) => {
      const slow = Math.min(1, Math.max(0, (c - 380) / 200));
      return Array.from({length: 6}, () => (r() < slow ? 2 : 1) * period);
    })};
  },
  // Six distinct complexities, 48 rows each, every sixth row a mutation: whole segments share
  // one x (C == 0 or F == 0 splits) and the trim bounds fall inside a run of equal values.
  'duplicates.json': () => {
    const r = noiseSource(3);
    const levels = [];
    for (let rep = 0; rep < 8; ++rep)
      for (const c of [300, 250, 200, 150, 100, 50]) levels.push(c);
    return {fps: 60, samples: record(levels, (c) =>
      Array.from({length: 6}, () => knee(c, 140, 0.08) + (r() - 0.5) * 0.5), 1.5)};
  },
  // 20 rows over 5 complexities 12 apart, one mutation row each: the trim would keep fewer than 20 rows over less than 20
  // complexities, so MotionMark scores the full range, in the fit and in every resample.
  'tiny.json': () => {
    const r = noiseSource(4);
    const levels = [52, 49, 46, 43, 40];
    return {fps: 60, samples: record(levels, (c) =>
      Array.from({length: 4}, () => knee(c, 45, 0.6) + (r() - 0.5) * 0.2), 0.7)};
  },
  // Two mutation frames for every animation frame (a controller stepping every frame or two):
  // the bootstrap population differs most from the animation rows alone.
  'mostly_mutation.json': () => {
    const r = noiseSource(5);
    const rows = [];
    let t = 0;
    for (let ramp = 0; ramp < 3; ++ramp) {
      for (let i = 0; i < 100; ++i) {
        const c = 800 - 7 * i + ramp;
        const y = knee(c, 380, 0.04) + (r() - 0.5) * 0.6;
        t += y;
        rows.push([i % 3 === 2 ? 'a' : 'm', t, c, y]);
      }
    }
    return {fps: 60, samples: rows};
  },
  // Frame length falls with complexity (t2 < 0 in most resamples) and the top levels are
  // mutation rows: the estimate is then the resample's complexity at its own trim bound, which
  // may be a mutation row.
  'negative.json': () => {
    const r = noiseSource(6);
    const levels = rampLevels(6, 400, 100, 20, r);
    return {fps: 60, samples: record(levels, (c) =>
      Array.from({length: 5}, () => 24 - c * 0.01 + (r() - 0.5) * 0.4), 2)};
  },
  // One animation row: every resample is that row, the score is its complexity.
  'lone.json': () => ({fps: 60, samples: [['a', 16.7, 5, 16.9]]}),
  // Only mutation rows: nothing to fit, MotionMark fails on the full fit.
  'all_mutation.json': () => ({fps: 60, samples: [['m', 0, 5, 16.7], ['m', 16.7, 6, 17.1], ['m', 33.8, 7, 18.2]]}),
  // Many mutation rows and few animation rows in a small set: some resamples draw no animation
  // row in their trimmed range, where MotionMark's regression fails (it indexes an empty array).
  'sparse.json': () => {
    const rows = [];
    let t = 0;
    for (let i = 0; i < 30; ++i) {
      const c = 100 + 10 * i;
      const y = knee(c, 250, 0.05);
      t += y;
      rows.push([i % 10 === 0 ? 'a' : 'm', t, c, y]);
    }
    return {fps: 60, samples: rows};
  },
};

for (const [name, make] of Object.entries(sets)) {
  const file = path.join(dataDir, name);
  fs.writeFileSync(file, JSON.stringify(make()) + '\n');
  console.error(`wrote ${file}`);
}
