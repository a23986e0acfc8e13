package hdp;

import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;

import org.apache.commons.math3.random.MersenneTwister;

/** Fits p(target | x1..xL) on an integer CSV (first column the target) once per seed and
 * prints, per seed, the estimate at every leaf configuration (row-major over the
 * conditioning values), the tree's own fallback to the deepest existing node. */
public class RunSeeds {
	public static void main(String[] args) throws Exception {
		String file = args[0];
		int seeds = Integer.parseInt(args[1]);
		int iters = Integer.parseInt(args[2]);
		ArrayList<int[]> rows = new ArrayList<>();
		try (BufferedReader r = new BufferedReader(new FileReader(file))) {
			String line;
			while ((line = r.readLine()) != null) {
				if (line.trim().isEmpty() || line.startsWith("#")) continue;
				String[] f = line.trim().split(",");
				int[] v = new int[f.length];
				for (int i = 0; i < f.length; i++) v[i] = Integer.parseInt(f[i].trim());
				rows.add(v);
			}
		}
		int[][] data = rows.toArray(new int[0][]);
		for (int s = 1; s <= seeds; s++) {
			ProbabilityTree tree = new ProbabilityTree(iters, TyingStrategy.LEVEL);
			tree.rng = new MersenneTwister(s);
			tree.addDataset(data);
			int L = tree.nValuesContioningVariables.length;
			int[] radix = tree.nValuesContioningVariables;
			int total = 1;
			for (int d = 0; d < L; d++) total *= radix[d];
			StringBuilder sb = new StringBuilder();
			for (int c = 0; c < total; c++) {
				int[] q = new int[L];
				int rem = c;
				for (int d = L - 1; d >= 0; d--) { q[d] = rem % radix[d]; rem /= radix[d]; }
				double[] p = tree.query(q);
				for (double x : p) sb.append(x).append(' ');
			}
			System.out.println(sb.toString().trim());
		}
	}
}
