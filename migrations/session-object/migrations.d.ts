/** The session object's migrations as drizzle-kit bundles them (migrations.js beside this). */
declare const migrations: {
  journal: {
    entries: { idx: number; when: number; tag: string; breakpoints: boolean }[];
  };
  migrations: Record<string, string>;
};
export default migrations;
