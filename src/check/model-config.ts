import { CanvasError } from '../model/canvas-error.js';

/** Where the checker's model is and how to reach it (docs/coherence.md "Configuration"). */
export interface ModelConfig {
  /** The base URL of an OpenAI-compatible Chat Completions API, for example `http://127.0.0.1:8080/v1`. */
  url: string;
  /** The model's name as the server knows it: `^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}$`. */
  model: string;
  /** The bearer key, when the server wants one. Never printed, never put in a message. */
  apiKey?: string | undefined;
}

/** A model's name: one plain token, short enough to name in a reason. */
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}$/;

const HINT = 'export CANVAS_MODEL_URL (for example http://127.0.0.1:8080/v1) and CANVAS_MODEL (the model name); CANVAS_MODEL_API_KEY when the server wants a key';

/**
 * Check a model configuration: an `http:` or `https:` URL and a model name of one plain token.
 *
 * @param config - the configuration (the key is not checked and never echoed)
 * @returns the same configuration, the URL without a trailing slash
 * @throws CanvasError `CHECK_CONFIG` naming what is missing or wrong (docs/coherence.md "Configuration")
 */
export function checkModelConfig(config: { url?: string | undefined; model?: string | undefined; apiKey?: string | undefined }): ModelConfig {
  const url = config.url?.trim() ?? '';
  const model = config.model ?? '';
  if (url === '' || model === '') {
    const missing = [url === '' ? 'CANVAS_MODEL_URL' : '', model === '' ? 'CANVAS_MODEL' : ''].filter(Boolean);
    throw new CanvasError('CHECK_CONFIG', `the checker has no model to ask: ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set`, HINT, { missing });
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CanvasError('CHECK_CONFIG', `CANVAS_MODEL_URL ${JSON.stringify(url)} is not a URL`, HINT, { rule: 'url' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CanvasError('CHECK_CONFIG', `CANVAS_MODEL_URL must be an http: or https: URL, not ${parsed.protocol}`, HINT, { rule: 'url' });
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new CanvasError('CHECK_CONFIG', 'CANVAS_MODEL_URL must not carry a user or password', 'put the key in CANVAS_MODEL_API_KEY instead', { rule: 'url' });
  }
  if (!MODEL_NAME.test(model)) {
    throw new CanvasError('CHECK_CONFIG', `CANVAS_MODEL ${JSON.stringify(model.slice(0, 120))} is not a model name (^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}$)`, HINT, {
      rule: 'model',
    });
  }
  const apiKey = config.apiKey === undefined || config.apiKey === '' ? undefined : config.apiKey;
  return { url: url.replace(/\/+$/, ''), model, apiKey };
}

/**
 * Read the model configuration from the environment: `CANVAS_MODEL_URL`, `CANVAS_MODEL`,
 * `CANVAS_MODEL_API_KEY` (docs/coherence.md "Configuration").
 *
 * @param env - the environment (default `process.env`)
 * @throws CanvasError `CHECK_CONFIG`
 */
export function modelConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ModelConfig {
  return checkModelConfig({ url: env.CANVAS_MODEL_URL, model: env.CANVAS_MODEL, apiKey: env.CANVAS_MODEL_API_KEY });
}
