import mongoose from 'mongoose';
import { AppError } from '../errors';
import { PublishError } from './amqp-client';
import { PermanentError, TransientError, classifyFailure } from './failure';

const { mongo } = mongoose;

function systemError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:27017`), { code });
}

describe('classifyFailure (decision 0041)', () => {
  it.each<[string, unknown]>([
    ['a lost store connection', new mongo.MongoNetworkError('connection 3 to 127.0.0.1:27017 closed')],
    ['a store that cannot be reached', new mongo.MongoServerSelectionError('Server selection timed out', {} as never)],
    ['a closed client', new mongo.MongoNotConnectedError('Client must be connected')],
    ['a store shutting down', Object.assign(new mongo.MongoServerError({ message: 'shutdown', code: 91 }), {})],
    ['a store time-out', new mongo.MongoServerError({ message: 'operation exceeded time limit', code: 50 })],
    [
      "mongoose's buffering time-out",
      new mongoose.Error('Operation `deliveries.findOne()` buffering timed out after 10000ms'),
    ],
    ['a refused socket', systemError('ECONNREFUSED')],
    ['a reset socket', systemError('ECONNRESET')],
    ['DNS trouble', systemError('EAI_AGAIN')],
    ['fetch failing on a socket', new TypeError('fetch failed', { cause: systemError('ECONNREFUSED') })],
    [
      'an abort on time-out',
      Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }),
    ],
    ['a broker that is away', new PublishError('not connected to the broker', 'disconnected')],
    ['a broker holding confirms', new PublishError('no confirm within 30000 ms', 'timeout')],
    ['a closed channel', Object.assign(new Error('Channel closed'), { name: 'IllegalOperationError' })],
    ['a dependency answering 503', new AppError('SERVICE_UNAVAILABLE')],
    ['a dependency rate-limiting', new AppError('RATE_LIMITED')],
    ['a handler saying so', new TransientError('upstream busy')],
  ])('%s is transient', (_name, err) => {
    expect(classifyFailure(err)).toBe('transient');
  });

  it.each<[string, unknown]>([
    ['a document its schema refuses', new mongoose.Error.ValidationError()],
    ['a value that cannot be cast', new mongoose.Error.CastError('ObjectId', 'nope', '_id')],
    ['a refused request', new AppError('VALIDATION_FAILED')],
    ['a missing resource', new AppError('NOT_FOUND')],
    ['a handler saying so', new PermanentError('event of an unknown tenant')],
  ])('%s is permanent', (_name, err) => {
    expect(classifyFailure(err)).toBe('permanent');
  });

  it.each<[string, unknown]>([
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a duplicate key', new mongo.MongoServerError({ message: 'E11000 duplicate key', code: 11000 })],
    ['a thrown string', 'boom'],
    ['nothing at all', undefined],
  ])('%s is unknown (retried with back-off, then parked)', (_name, err) => {
    expect(classifyFailure(err)).toBe('unknown');
  });
});
