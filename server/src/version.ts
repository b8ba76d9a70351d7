/** The extension's version, injected by esbuild from package.json; 'dev' when run from sources (tests). */
declare const __HCP_TERRAFORM_VERSION__: string | undefined;
export const serverVersion: string = typeof __HCP_TERRAFORM_VERSION__ === 'string' ? __HCP_TERRAFORM_VERSION__ : 'dev';
