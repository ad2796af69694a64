/** A `.sql` file imported as its text: wrangler's Text rule, and vitest.config.ts's plugin. */
declare module "*.sql" {
  const text: string;
  export default text;
}
