import { defineResource } from '../common';
import { create } from './create.operation';
import { deleteWebhook } from './delete.operation';
import { get } from './get.operation';
import { getAll } from './getAll.operation';
import { ping } from './ping.operation';
import { pingAll } from './pingAll.operation';

export const webhook = defineResource('webhook', 'Webhook', 'getAll', {
	create,
	getAll,
	get,
	delete: deleteWebhook,
	pingAll,
	ping,
});
