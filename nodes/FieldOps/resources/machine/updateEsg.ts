import { FieldOpsFailure } from '../../transport/errors';
import { optionsCollection, type Field, on, shown } from '../../parameters/field';
import { choiceValue } from '../../parameters/values';
import type { RequestOperation } from '../../operations/operation';
import { machine, ONE_MACHINE } from './common';

const options = (
	displayName: string,
	name: string,
	fallback: number,
	values: Array<[string, number]>,
): Field => {
	const choices = values.map(([label, value]) => ({ name: label, value }));
	return {
		property: { displayName, name, type: 'options', default: fallback, options: choices },
		to: 'body',
		// The spec's int codes: an expression giving another value is refused before sending.
		value: choiceValue(displayName, choices),
	};
};

const esgFields = shown(
	on('machine', 'updateEsg'),
	optionsCollection(
		'ESG Fields',
		'esgFields',
		[
			{
				property: {
					displayName: 'Fuel Consumption Rate',
					name: 'fuelConsumptionRate',
					type: 'number',
					default: 0,
					typeOptions: { minValue: 0 },
				},
				to: 'body',
			},
			options('Fuel Consumption Unit', 'fuelConsumptionUnit', 0, [
				['Kg per Hour', 4],
				['Kg per Km', 5],
				['KWh per Hour', 2],
				['KWh per Km', 3],
				['Litres per Hour', 0],
				['Litres per Km', 1],
			]),
			options('Fuel Type', 'fuelType', 1, [
				['Biodiesel', 2],
				['Diesel', 1],
				['Dyed Diesel', 7],
				['Electric', 4],
				['Gas', 5],
				['Gasoline', 3],
				['Natural Gas', 6],
				['None', 0],
			]),
		],
		{ placeholder: 'Add Field' },
	),
);

export const updateEsg: RequestOperation = {
	name: 'Update ESG',
	value: 'updateEsg',
	action: 'Update the ESG data of a machine',
	description: 'Set fuel type, fuel consumption rate and unit',
	fields: [machine, esgFields],
	request: {
		method: 'PATCH',
		path: `${ONE_MACHINE}/esg`,
		// The ESG endpoint needs at least one field: say so before any request.
		prepare: (request) => {
			if (Object.keys(request.body as object).length === 0)
				throw new FieldOpsFailure(
					'Add at least one ESG field',
					'Fuel Consumption Rate, Fuel Consumption Unit or Fuel Type.',
				);
		},
	},
};
