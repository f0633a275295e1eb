#!/usr/bin/env node
// Scores every sample set in tests/mark/data with MotionMark 1.3.1's own scoring code (the
// unmodified files in vendor/) and writes what it says to tests/mark/data/expected.json, which
// tests/mark/score_test.cpp holds Pictor's `mark score` to.
//
// The vendored files are loaded as a browser would load them, into one global scope (a Node vm
// context with a do-nothing `window`/`document`); nothing in them is changed. Each set is scored
// by ResultsDashboard exactly as the MotionMark results page scores a test, with the ramp
// controller. The driver only:
//  * sorts the rows stably by complexity first, as MotionMark's RampController.processSamples
//    does before scoring (Pictor's recorded samples.json is already in that order);
//  * notes the first Regression that calculateScore builds (its fit of the trimmed rows) and
//    counts the ones it starts, by wrapping the Regression constructor, so the expected
//    regression can be written too, and where MotionMark fails, in which bootstrap resample.
//
// Usage: node generate.js [--check] [--dump DIR] [DATA_DIR]
//   --check     compare with the committed expected.json instead of writing it (exit 1 if different)
//   --dump DIR  also write every set's 2500 sorted bootstrap estimates to DIR/<set>.estimates.json
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

const vendor = path.join(__dirname, 'vendor');
const release = {release: '1.3.1', tag: 'release/MotionMark1.3.1', commit: 'be2a5fea89b6ef411b053ebeb95a6302b3dc0ecb',
                 repository: 'https://github.com/WebKit/MotionMark',
                 files: ['resources/extensions.js', 'resources/strings.js', 'resources/statistics.js',
                         'resources/runner/motionmark.js']};

function parseArgs(argv) {
  const args = {check: false, dump: null, dataDir: path.join(__dirname, '..', 'data')};
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--check') args.check = true;
    else if (argv[i] === '--dump') args.dump = argv[++i];
    else args.dataDir = argv[i];
  }
  return args;
}

function loadMotionMark() {
  const noop = () => {};
  const page = {console, addEventListener: noop, document: {addEventListener: noop}};
  page.window = page;
  vm.createContext(page);
  for (const file of release.files)
    vm.runInContext(fs.readFileSync(path.join(vendor, path.basename(file)), 'utf8'), page, {filename: file});

  // Note the first fit of each calculateScore call: the trimmed rows' regression.
  const Regression = page.Regression;
  const noted = {fit: null, started: 0};
  function NotingRegression(samples, startIndex, endIndex, options) {
    ++noted.started;
    const fit = new Regression(samples, startIndex, endIndex, options);
    if (!noted.fit) noted.fit = fit;
    return fit;
  }
  NotingRegression.prototype = Regression.prototype;
  NotingRegression.bootstrap = Regression.bootstrap;
  page.Regression = NotingRegression;
  return {page, noted};
}

function frameType(t) {
  if (t === 'animation') return 'a';
  if (t === 'mutation') return 'm';
  return t;
}

// The test data object MotionMark's controller hands to the results page.
function testData(set) {
  const fieldMap = {frameType: 0, time: 1, complexity: 2, frameLength: 3};
  const rows = set.samples.map((r) => [frameType(r[0]), r[1], r[2], r[3]]);
  rows.sort((a, b) => a[2] - b[2]);  // stable, as RampController.processSamples sorts
  return {samples: {complexity: {fieldMap, data: rows}}, controller: [], targetFPS: set.fps};
}

function dashboard(mm, fps, tests) {
  return new mm.page.ResultsDashboard(release.release, {'frame-rate': fps, controller: 'ramp'}, [{mark: tests}]);
}

function scoreSet(mm, name, set) {
  mm.noted.fit = null;
  mm.noted.started = 0;
  let board;
  try {
    board = dashboard(mm, set.fps, {[name]: testData(set)});
  } catch (e) {
    // started − 1: the resample whose fit failed (1-based); 0 when the fit of all rows failed.
    return {entry: {file: name, fps: set.fps, rows: set.samples.length, error: String(e),
                    failedResample: mm.noted.started - 1}};
  }
  const result = board.results[0].testsResults.mark[name];
  const fit = mm.noted.fit;
  const regression = {};
  for (const key of ['complexity', 's1', 't1', 's2', 't2', 'n1', 'n2', 'error', 'stdev1', 'stdev2'])
    regression[key === 'complexity' ? 'changePoint' : key] = fit[key] === undefined ? null : fit[key];
  const entry = {
    file: name, fps: set.fps, rows: set.samples.length,
    mutationRows: set.samples.filter((r) => frameType(r[0]) === 'm').length,
    score: result.score, lower: result.scoreLowerBound, upper: result.scoreUpperBound,
    regression,
  };
  return {entry, estimates: result.complexity.bootstrap.data};
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const mm = loadMotionMark();
  const files = fs.readdirSync(args.dataDir).filter((f) => f.endsWith('.json') && f !== 'expected.json').sort();
  const sets = {};
  const out = {
    about: 'Written by tests/mark/motionmark_reference/generate.js: MotionMark\'s own scoring of each file ' +
           'here. Do not edit by hand; rerun the script (see its README).',
    motionmark: release, node: process.version, sets: [],
  };
  for (const name of files) {
    sets[name] = JSON.parse(fs.readFileSync(path.join(args.dataDir, name), 'utf8'));
    if (sets[name].fps === undefined) sets[name].fps = 60;
    const {entry, estimates} = scoreSet(mm, name, sets[name]);
    out.sets.push(entry);
    console.error(entry.error ? `${name}: ${entry.error}` : `${name}: ${entry.score} [${entry.lower}, ${entry.upper}]`);
    if (args.dump && estimates) {
      fs.mkdirSync(args.dump, {recursive: true});
      fs.writeFileSync(path.join(args.dump, name.replace(/\.json$/, '.estimates.json')), JSON.stringify(estimates) + '\n');
    }
  }

  // The suite score over every 60 fps set MotionMark could score, in file order.
  const suiteFiles = out.sets.filter((e) => !e.error && e.fps === 60).map((e) => e.file);
  const tests = {};
  for (const name of suiteFiles) tests[name] = testData(sets[name]);
  const board = dashboard(mm, 60, tests);
  out.suite = {fps: 60, files: suiteFiles, score: board.score, lower: board.scoreLowerBound, upper: board.scoreUpperBound};

  const text = JSON.stringify(out, null, 1) + '\n';
  const target = path.join(args.dataDir, 'expected.json');
  if (args.check) {
    const committed = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    // The Node version is informative; everything else must be identical.
    const strip = (s) => s.replace(/"node": "[^"]*"/, '"node": ""');
    if (strip(committed) !== strip(text)) {
      console.error(`${target} differs from what MotionMark's code gives now: rerun generate.js and review the diff`);
      process.exit(1);
    }
    console.error(`${target} matches MotionMark's code`);
    return;
  }
  fs.writeFileSync(target, text);
  console.error(`wrote ${target}`);
}

main();
