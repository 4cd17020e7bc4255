import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, UnexpectedError } from 'n8n-workflow';
import { Credentials } from 'n8n-core';

/** Credential data keyed by credential type name, e.g. `{ knolyxApi: { baseUrl, projectId, apiKey } }`. */
export interface HarnessCredentials {
	[credentialType: string]: Record<string, unknown>;
}

/**
 * An in-memory stand-in for n8n's CLI CredentialsHelper (packages/cli/src/credentials-helper.ts):
 * no database or encryption, but the same contract towards n8n-core. `getDecrypted` fills the
 * credential type's defaults; `authenticate` runs a function authenticate, or resolves a
 * `generic` block's expressions against `$credentials` with the workflow's expression engine.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly types = new Map<string, ICredentialType>();

	/** How often each credential type was loaded and decrypted (n8n's CLI reads the database and decrypts each time). */
	readonly reads: Record<string, number> = {};

	constructor(
		credentialTypes: ICredentialType[],
		private readonly data: HarnessCredentials,
	) {
		super();
		for (const type of credentialTypes) this.types.set(type.name, type);
	}

	getType(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new UnexpectedError(`Unknown credential type "${name}"`);
		return type;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.getType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			if (!workflow || !node)
				throw new UnexpectedError('Generic authentication needs workflow and node');
			const resolve = (value: string) =>
				String(
					workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					) ?? '',
				);
			const target = requestOptions as unknown as Record<string, Record<string, string>>;
			target.headers ??= {};
			for (const [section, entries] of Object.entries(authenticate.properties)) {
				target[section] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					target[section][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	getParentTypes(name: string): string[] {
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.getType(type).properties;
	}

	/** Stored data with the type's defaults filled in, like n8n's applyDefaultsAndOverwrites. */
	withDefaults(type: string, data: Record<string, unknown>): ICredentialDataDecryptedObject {
		const result: ICredentialDataDecryptedObject = {};
		for (const property of this.getCredentialsProperties(type)) {
			if (property.default !== undefined) result[property.name] = property.default as string;
		}
		return Object.assign(result, data) as ICredentialDataDecryptedObject;
	}

	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new UnexpectedError(`No test credentials given for type "${type}"`);
		this.reads[type] = (this.reads[type] ?? 0) + 1;
		return this.withDefaults(type, data);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		return new Credentials(nodeCredentials, type, '');
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}
}
