// Runs Dolos (its library, @dodona/dolos-lib, at its default options) on
// every file of a folder and prints one CSV line per pair:
//   left,right,similarity
// Usage: node dolos.mjs DOLOS_DIR FOLDER
// DOLOS_DIR is where `npm install @dodona/dolos-lib` was run (outside the
// repository, e.g. /tmp/dolos); see run.py.
import { readdirSync } from "node:fs";
import { join, resolve, basename } from "node:path";
import { pathToFileURL } from "node:url";

const [dolosDir, folder] = process.argv.slice(2);
const lib = await import(
  pathToFileURL(join(resolve(dolosDir), "node_modules/@dodona/dolos-lib/dist/index.js")).href
);
const files = readdirSync(folder)
  .filter((f) => /\.(py|cpp|cc|cxx)$/.test(f))
  .sort()
  .map((f) => join(folder, f));
const language = files[0].endsWith(".py") ? "python" : "cpp";
const dolos = new lib.Dolos({ language });
const report = await dolos.analyzePaths(files);
const lines = ["left,right,similarity"];
for (const pair of report.allPairs()) {
  lines.push(`${basename(pair.leftFile.path)},${basename(pair.rightFile.path)},${pair.similarity}`);
}
process.stdout.write(lines.join("\n") + "\n");
