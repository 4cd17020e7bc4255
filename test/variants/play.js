/** Jest setup file of jest.variants.config.js: the project's variants, for every sandbox a test starts. */
process.env.KNOLYX_SANDBOX_VARIANTS = globalThis.KNOLYX_SANDBOX_VARIANTS;
