export { type AllInOne, type AllInOneOptions, startAllInOne } from "./all-in-one.ts";
