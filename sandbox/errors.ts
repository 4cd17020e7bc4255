/** Spring-like error bodies, used for every error the sandbox answers on /public/api. */
import type { Response } from 'express';

const REASONS: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	409: 'Conflict',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export const ENTITY_NOT_FOUND = 'Entity not found';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);
export const notFound = (message = ENTITY_NOT_FOUND): ApiError => new ApiError(404, message);

export interface ErrorBody {
	timestamp: string;
	status: number;
	error: string;
	message: string;
	path: string;
}

export function errorBody(status: number, message: string, path: string): ErrorBody {
	return {
		timestamp: new Date().toISOString(),
		status,
		error: REASONS[status] ?? 'Error',
		message,
		path,
	};
}

export function sendError(res: Response, status: number, message: string): void {
	res.status(status).json(errorBody(status, message, res.req.originalUrl.split('?')[0]));
}
