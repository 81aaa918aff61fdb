export const CREDENTIAL_TYPE = 'fieldOpsOAuth2Api';

/** The four addresses of one Field Ops environment; a token is only ever sent to these. */
export type FieldOpsApi = 'core' | 'reporting' | 'identity' | 'machineState';

export const API_URL_FIELD: Record<FieldOpsApi, string> = {
	core: 'coreUrl',
	reporting: 'reportingUrl',
	identity: 'identityUrl',
	machineState: 'machineStateUrl',
};
