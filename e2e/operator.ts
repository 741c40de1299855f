// The specs act as the operator (PLANGATE_TOKEN) on every request, pages included: set on the server the
// config starts and on every browser context (Playwright applies the config's headers to hand-made ones too).
export const E2E_OPERATOR_TOKEN = "plangate-e2e-operator-token";
export const OPERATOR_HEADERS = { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` };
