// papaparse's browser build (papaparse.min.js, the package's "browser" entry): the same parser
// without the Node stream support of its main entry, whose require("stream") would otherwise load
// node:stream at every Worker start. Typed as the package.
declare module "papaparse/papaparse.min.js" {
  import * as Papa from "papaparse";
  export default Papa;
}
