/** The version --version prints and bug reports carry (kept equal to package.json's). */
export const VERSION = '0.1.0';
