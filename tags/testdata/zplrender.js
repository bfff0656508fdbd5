// zplrender.js renders ZPL labels with the npm package zpl-renderer-js
// (a WebAssembly build of ingridhq/zebrash), used by the tags tests as an
// independent ZPL oracle. Standard input is a JSON array of jobs
// {"zpl": "...", "width_mm": w, "height_mm": h, "dpmm": d}; standard
// output is a JSON array with one base64 PNG per job.
//
// usage: node zplrender.js MODULES_DIR < jobs.json > pngs.json
"use strict";
const path = require("path");
const entry = require.resolve("zpl-renderer-js", { paths: [path.resolve(process.argv[2] || ".")] });
const { ready } = require(entry);

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", async () => {
  try {
    const { api } = await ready;
    const out = [];
    for (const job of JSON.parse(input)) {
      out.push(await api.zplToBase64Async(job.zpl, job.width_mm, job.height_mm, job.dpmm));
    }
    process.stdout.write(JSON.stringify(out), () => process.exit(0));
  } catch (e) {
    process.stderr.write("zplrender: " + (e && e.stack ? e.stack : e) + "\n");
    process.exit(1);
  }
});
