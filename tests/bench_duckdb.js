// tests/bench_duckdb.js — the DuckDB side of the load comparison in
// `make bench` (tests/bench.sh): how long DuckDB takes to load the same
// trace file into an in-memory table.
//
// Owns: timing `CREATE TABLE t AS SELECT * FROM read_csv('FILE')` (a .csv)
// or `... read_json('FILE', format = 'newline_delimited')` (a .ndjson) RUNS
// times in this one process, each run in a fresh in-memory database with
// `SET threads = THREADS` (tnav's thread count), and printing one line of
// key=value fields like `tnav stats --bench`:
//
//   duckdb file=F format=csv threads=2 runs=3 rows=N best_s=S median_s=S rss_bytes=B sample_size=default
//
// tests/bench.sh runs it with RUNS = 1 once after each `tnav stats --bench`
// run, alternating the two tools, and compares the best of each.
//
// rss_bytes is this process's resident size right after the best run's
// load (the table is still held). DuckDB infers the columns from the first
// rows (sample_size, 20,480 rows by default); when a key or a value type
// turns up only later it fails ("has unknown key"), and the load is timed
// again with `sample_size = -1` (the whole file is read to infer them, as
// the error message advises): sample_size=all then says so. DuckDB is installed by tests/bench.sh
// into build/bench/node_modules (npm install --prefix build/bench
// @duckdb/node-api); it is never a dependency of tnav.
//
//   NODE_PATH=build/bench/node_modules node tests/bench_duckdb.js FILE [RUNS] [THREADS]
'use strict';

const path = require('path');

async function main() {
    const [file, runsArg, threadsArg] = process.argv.slice(2);
    if (!file) {
        console.error('usage: node tests/bench_duckdb.js FILE [RUNS] [THREADS]');
        process.exit(2);
    }
    const runs = Math.max(1, parseInt(runsArg || '3', 10));
    const threads = Math.max(1, parseInt(threadsArg || '2', 10));
    let duckdb;
    try {
        duckdb = require('@duckdb/node-api');
    } catch (e) {
        console.error('bench_duckdb: @duckdb/node-api is not installed (' + e.message.split('\n')[0] + ')');
        process.exit(3);
    }
    const abs = path.resolve(file).replace(/'/g, "''");
    const ndjson = /\.(nd)?json$/.test(file);
    const source = (sample) => ndjson
        ? `read_json('${abs}', format = 'newline_delimited'${sample})`
        : `read_csv('${abs}'${sample})`;
    let sample = '';
    const times = [];
    let rows = 0, rss = 0, best = Infinity;
    for (let i = 0; i < runs; i++) {
        const instance = await duckdb.DuckDBInstance.create(':memory:', { threads: String(threads) });
        const con = await instance.connect();
        await con.run(`SET threads = ${threads}`);
        let t0 = process.hrtime.bigint();
        try {
            await con.run(`CREATE TABLE t AS SELECT * FROM ${source(sample)}`);
        } catch (e) {
            if (sample !== '')
                throw e;
            console.error('bench_duckdb: ' + String(e.message).split('\n')[0] + ' (timing again with sample_size = -1)');
            sample = ', sample_size = -1';
            await con.run('DROP TABLE IF EXISTS t');
            t0 = process.hrtime.bigint();
            await con.run(`CREATE TABLE t AS SELECT * FROM ${source(sample)}`);
        }
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        times.push(s);
        if (s < best) {
            best = s;
            rss = process.memoryUsage().rss;
            const r = await con.runAndReadAll('SELECT count(*) FROM t');
            rows = Number(r.getRows()[0][0]);
        }
        con.closeSync();
        instance.closeSync();
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor((times.length - 1) / 2)];
    console.log(`duckdb file=${file} format=${ndjson ? 'ndjson' : 'csv'} threads=${threads} runs=${runs} ` +
                `rows=${rows} best_s=${best.toFixed(3)} median_s=${median.toFixed(3)} rss_bytes=${rss} ` +
                `sample_size=${sample ? 'all' : 'default'}`);
}

main().catch((e) => {
    console.error('bench_duckdb: ' + (e && e.message ? e.message : e));
    process.exit(1);
});
