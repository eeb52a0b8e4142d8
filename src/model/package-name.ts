/**
 * The package's name on the registry (README, "Install"): what `npm install` takes and what a
 * library caller imports. The command it installs stays `canvas`. Code that finds the package's
 * own files (templates, the version) looks upwards for the `package.json` with this name.
 */
export const PACKAGE_NAME = 'task-canvas';
