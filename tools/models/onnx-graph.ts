// A small builder over the ONNX protobuf schema (npm `onnx-proto`) for the tiny models the project generates:
// named inputs and outputs with symbolic dimensions, constant tensors, and nodes; serialised to bytes that
// ONNX Runtime loads. Opset 17.
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';

const { onnx } = onnxProto;
const OPSET = 17;

export type ElemType = 'float' | 'int64';
/** A dimension: a fixed size or a symbolic name (`batch`, `sequence`). */
export type Dim = number | string;

const ELEM: Record<ElemType, number> = { float: onnx.TensorProto.DataType.FLOAT, int64: onnx.TensorProto.DataType.INT64 };

function valueInfo(name: string, type: ElemType, dims: Dim[]): OnnxTypes.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: ELEM[type],
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

type Attribute = number | number[] | string;

function attribute(name: string, value: Attribute): OnnxTypes.IAttributeProto {
  const A = onnx.AttributeProto.AttributeType;
  if (typeof value === 'string') return { name, type: A.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: A.INTS, ints: value };
  return Number.isInteger(value) ? { name, type: A.INT, i: value } : { name, type: A.FLOAT, f: value };
}

export class OnnxGraph {
  readonly #nodes: OnnxTypes.INodeProto[] = [];
  readonly #initializers: OnnxTypes.ITensorProto[] = [];
  readonly #inputs: OnnxTypes.IValueInfoProto[] = [];
  readonly #outputs: OnnxTypes.IValueInfoProto[] = [];
  #counter = 0;

  input(name: string, type: ElemType, dims: Dim[]): string {
    this.#inputs.push(valueInfo(name, type, dims));
    return name;
  }

  output(name: string, type: ElemType, dims: Dim[]): void {
    this.#outputs.push(valueInfo(name, type, dims));
  }

  /** A constant tensor; returns its name. */
  constant(type: ElemType, dims: number[], values: number[], name = `const_${this.#counter++}`): string {
    const tensor: OnnxTypes.ITensorProto = { name, dims, dataType: ELEM[type] };
    if (type === 'float') tensor.floatData = values;
    else tensor.int64Data = values;
    this.#initializers.push(tensor);
    return name;
  }

  /** One node; returns its first output's name (`outputName`, or a generated one). */
  node(op: string, inputs: string[], attributes: Record<string, Attribute> = {}, outputName = `t_${this.#counter++}`): string {
    this.#nodes.push({
      opType: op,
      input: inputs,
      output: [outputName],
      name: `${op}_${this.#counter++}`,
      attribute: Object.entries(attributes).map(([k, v]) => attribute(k, v)),
    });
    return outputName;
  }

  /** The serialised model. */
  toBytes(graphName: string): Uint8Array {
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'spec-conformance-harness tools/models',
      opsetImport: [{ domain: '', version: OPSET }],
      graph: { name: graphName, node: this.#nodes, initializer: this.#initializers, input: this.#inputs, output: this.#outputs },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}
