/**
 * What the end-to-end set-up does about Redis, Chromium and Dovecot (scripts/n8n/system-packages.ts): nothing when
 * all are there, apt as root on Debian, else a failure naming the one command to run.
 */
import { planSystemPackages, systemPrograms } from '../../scripts/n8n/system-packages';

describe('end-to-end system packages', () => {
	it('does nothing when nothing is missing', () => {
		expect(planSystemPackages([], { root: false, apt: false })).toEqual({ action: 'none' });
	});

	it('installs the missing Debian packages with apt when it runs as root, waiting for another apt', () => {
		const plan = planSystemPackages(['redis-server', 'chromium'], { root: true, apt: true });
		expect(plan).toEqual({
			action: 'install',
			packages: ['redis-server', 'chromium'],
			commands: [
				['apt-get', '-o', 'DPkg::Lock::Timeout=600', 'update', '-qq'],
				[
					'apt-get',
					'-o',
					'DPkg::Lock::Timeout=600',
					'install',
					'-y',
					'-qq',
					'--no-install-recommends',
					'redis-server',
					'chromium',
				],
			],
		});
	});

	it('fails with the sudo command when it is not root', () => {
		expect(planSystemPackages(['chromium'], { root: false, apt: true })).toEqual({
			action: 'fail',
			packages: ['chromium'],
			command: 'sudo apt-get install -y --no-install-recommends chromium',
			reason: 'installing Debian packages needs root',
		});
	});

	it('fails with what to install when there is no apt', () => {
		const plan = planSystemPackages(['redis-server'], { root: true, apt: false });
		expect(plan).toMatchObject({ action: 'fail', reason: 'this is not a Debian-like system (no apt-get)' });
	});

	it('looks where the tests look: REDIS_SERVER, CHROMIUM_PATH and DOVECOT_PATH, else redis-server, /usr/bin/chromium and dovecot', () => {
		expect(systemPrograms({}).map((p) => [p.debianPackage, p.binary])).toEqual([
			['redis-server', 'redis-server'],
			['chromium', '/usr/bin/chromium'],
			// Debian's path when installed (/usr/sbin is not on every PATH), else the name.
			['dovecot-imapd', expect.stringMatching(/^(\/usr\/sbin\/)?dovecot$/)],
		]);
		const custom = systemPrograms({
			REDIS_SERVER: '/opt/redis/bin/redis-server',
			CHROMIUM_PATH: '/nowhere/chromium',
			DOVECOT_PATH: '/nowhere/dovecot',
		});
		expect(custom.map((p) => p.binary)).toEqual([
			'/opt/redis/bin/redis-server',
			'/nowhere/chromium',
			'/nowhere/dovecot',
		]);
		expect(custom[1].version()).toBeUndefined();
		expect(custom[2].version()).toBeUndefined();
	});
});
